import Foundation
import Observable
import Synchronization
import TetherTestSupport
import XCTest

/// `SerialGate.submitBookkeeping`: a removal is done in place under the gate's lock when the gate is idle, or queued for the thread that owns it — the submitter never performs
/// what other threads queued (guarantee 2: `dispose()` delivers nothing to other subscribers).
final class SerialGateBookkeepingTests: XCTestCase {
    /// A gate of `Int` operations that records them, and the threads that performed them, in order.
    /// Operation 0 blocks its owner until `resume` is signalled (after signalling `inside`).
    final class Probe: Sendable {
        let gate = SerialGate<Int>()
        let performed = Locked<[Int]>([])
        let performers = Locked<[UInt]>([])
        let doneInPlace = Locked<[Int]>([])
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)

        func perform(_ op: Int) {
            performed.mutate { $0.append(op) }
            performers.mutate { $0.append(currentThreadID) }
            if op == 0 {
                inside.signal()
                resume.wait()
            }
        }

        /// Submits bookkeeping `op`; `inPlace` does it (and says so) unless `declining`.
        func submitBookkeeping(_ op: Int, urgent: Bool = false, declining: Bool = false) {
            gate.submitBookkeeping(op, urgent: urgent) { op in
                if declining { return false }
                self.doneInPlace.mutate { $0.append(op) }
                return true
            } perform: {
                self.perform($0)
            }
        }

        /// Starts a thread that takes the idle gate with operation 0 and stays inside it until `resume`;
        /// returns once it is inside, with a semaphore signalled when that thread has returned.
        func ownOnAnotherThread(file: StaticString = #filePath, line: UInt = #line) -> (DispatchSemaphore, UInt) {
            let ownerID = Locked<UInt>(0)
            let done = startThread {
                ownerID.value = currentThreadID
                self.gate.submit(0) { self.perform($0) }
            }
            waitOrFail(inside, "the owner inside operation 0", file: file, line: line)
            return (done, ownerID.value)
        }
    }

    func testBookkeepingOnAnIdleGateIsDoneInPlaceAndLeavesTheGateIdle() {
        let probe = Probe()
        probe.submitBookkeeping(5)
        XCTAssertEqual(probe.doneInPlace.value, [5])
        XCTAssertEqual(probe.performed.value, [], "not performed as an ordinary operation")
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0, "idle again")
    }

    func testBookkeepingThatDeclinesInPlaceIsPerformedByTheCallerAsTheOwner() {
        let probe = Probe()
        probe.submitBookkeeping(5, declining: true)
        XCTAssertEqual(probe.performed.value, [5])
        XCTAssertEqual(probe.performers.value, [currentThreadID])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0, "idle again")
    }

    func testBookkeepingOnAGateOwnedByAnotherThreadIsLeftToItsOwner() {
        let probe = Probe()
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        // Another thread queues events behind operation 0 meanwhile.
        waitOrFail(startThread { for op in [1, 2] { probe.gate.submit(op) { probe.perform($0) } } }, "the sends")
        probe.submitBookkeeping(7)
        XCTAssertEqual(probe.performed.value, [0], "the submitter returned without performing anything")
        XCTAssertEqual(probe.doneInPlace.value, [])
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 1, 2, 7], "in order behind the events queued before it")
        XCTAssertEqual(Set(probe.performers.value), [owner], "all performed by the owner")
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0, "idle again")
    }

    func testUrgentBookkeepingRunsBeforeTheEventsQueuedBeforeIt() {
        let probe = Probe()
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        waitOrFail(startThread { for op in [1, 2] { probe.gate.submit(op) { probe.perform($0) } } }, "the sends")
        probe.submitBookkeeping(9, urgent: true)
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 9, 1, 2])
        XCTAssertEqual(Set(probe.performers.value), [owner])
    }

    func testBookkeepingNeverTakesAGateHandedOffToTheSendersParkedOnTheFullBacklog() {
        let probe = Probe()
        // The state a draining owner leaves for a parked sender: ownerless, work pending, reserved.
        probe.gate.lock.lock()
        probe.gate.remote.append(1)
        probe.gate.parkedSenders = 1
        probe.gate.word.store(1, ordering: .relaxed)
        probe.gate.lock.unlock()

        probe.submitBookkeeping(7)
        XCTAssertEqual(probe.performed.value, [], "left for the parked sender")
        XCTAssertEqual(probe.doneInPlace.value, [])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 1, "still reserved")

        // The parked sender comes back and takes the gate: it performs what was queued, the bookkeeping too.
        probe.gate.lock.lock()
        probe.gate.parkedSenders = 0
        probe.gate.lock.unlock()
        probe.gate.submit(2) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [1, 7, 2])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0, "idle again")
    }
}
