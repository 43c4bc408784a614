import TetherEngine
import XCTest

/// `OwnerStateGate`: state that only the gate's owner touches, handed from one owner to the next by the
/// gate — in place when the gate is idle, from a queued operation's `perform` otherwise, across threads.
final class OwnerStateGateTests: XCTestCase {
    func testAnIdleGatesOwnerUsesTheStateInPlace() {
        let gate = OwnerStateGate<Int, [Int]>(state: [0])
        let ran = gate.runIfIdle {
            XCTAssertTrue(gate.isOwnedByCurrentThread)
            gate.withOwnerState { $0.append(1) }
        } perform: { _ in
            XCTFail("nothing was queued")
        }
        XCTAssertTrue(ran)
        XCTAssertFalse(gate.isOwnedByCurrentThread, "released after the body")
        _ = gate.runIfIdle {
            XCTAssertEqual(gate.withOwnerState { $0 }, [0, 1])
        } perform: { _ in
        }
    }

    func testAnOperationSubmittedFromInsideTheOwnerSeesTheStateAfterTheCurrentOne() {
        let gate = OwnerStateGate<Int, [Int]>(state: [])
        let perform: (Int) -> Void = { op in gate.withOwnerState { $0.append(op) } }
        _ = gate.runIfIdle {
            gate.submitEvent(2, perform: perform)  // reentrant: queued behind the body
            gate.withOwnerState { $0.append(1) }
        } perform: { op in
            perform(op)
        }
        _ = gate.runIfIdle {
            XCTAssertEqual(gate.withOwnerState { $0 }, [1, 2])
        } perform: { _ in
        }
    }

    /// Four threads submit 20,000 increments each; each is performed by whichever thread owns the gate
    /// then. A plain `Int` in the owner state ends at exactly 80,000: the gate's hand-over orders every
    /// owner's accesses (Thread Sanitizer checks the same run for a race).
    func testOwnersOnManyThreadsSeeEachOthersWrites() {
        let gate = OwnerStateGate<Int, Int>(state: 0)
        let finished = onThreads(4) { _ in
            for _ in 0..<20_000 {
                gate.submitEvent(1) { op in gate.withOwnerState { $0 += op } }
            }
        }
        XCTAssertTrue(finished, "the threads finished (watchdog)")
        _ = gate.runIfIdle {
            XCTAssertEqual(gate.withOwnerState { $0 }, 80_000)
        } perform: { op in
            gate.withOwnerState { $0 += op }
        }
    }
}
