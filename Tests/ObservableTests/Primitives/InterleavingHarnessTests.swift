import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// The harness itself (`Interleaving`, `exploreInterleavings`): it enumerates every schedule, and it reports
/// what it exists to find — a lost wake-up as a deadlock, a broken invariant with its schedule — on toy
/// primitives broken on purpose. (A harness that could not fail would make the tests built on it pass
/// whatever the primitives do.)
final class InterleavingHarnessTests: XCTestCase {
    /// Failures recorded while `capturing` is set are kept here instead of failing the test.
    private let captured = Locked<[String]>([])
    private let capturing = Atomic<Bool>(false)

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing.load(ordering: .acquiring) {
            captured.mutate { $0.append(description) }
            return
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// Runs `body` and returns the failures it recorded, which do not fail the test.
    private func failures(of body: () -> Void) -> [String] {
        captured.value = []
        capturing.store(true, ordering: .releasing)
        body()
        capturing.store(false, ordering: .releasing)
        return captured.value
    }

    func testTheExplorerRunsEveryOrderOfTheActorsSteps() {
        // Two steps per actor (start → point, point → end): 4! / (2! 2!) orders of two actors, 6! / (2!)³ of three.
        for (actors, expected) in [(2, 6), (3, 90)] {
            let orders = Locked<Set<[String]>>([])
            let schedules = exploreInterleavings { run in
                let steps = Locked<[String]>([])
                for index in 0..<actors {
                    let name = String(UnicodeScalar(UInt8(65 + index)))
                    run.spawn(name) {
                        steps.mutate { $0.append(name) }
                        Interleaving.point("middle")
                        steps.mutate { $0.append(name) }
                    }
                }
                return {
                    orders.mutate { _ = $0.insert(steps.value) }
                    return []
                }
            }
            XCTAssertEqual(schedules, expected, "\(actors) actors")
            XCTAssertEqual(orders.value.count, expected, "each schedule a different order")
        }
    }

    /// A toy event whose waiter checks the flag, then parks unconditionally: a wake-up sent between the
    /// check and the park is lost. The explorer finds that schedule and reports it as a deadlock.
    func testTheExplorerReportsALostWakeUpAsADeadlockWithItsSchedule() {
        final class BrokenEvent: Sendable {
            let flag = Atomic<Bool>(false)
            var address: UInt { parkingAddress(of: self) }
        }
        let events = Locked<[BrokenEvent]>([])
        let reported = failures {
            exploreInterleavings { run in
                let event = BrokenEvent()
                events.mutate { $0.append(event) }
                run.spawn("waiter") {
                    if !event.flag.load(ordering: .acquiring) {
                        Interleaving.point("saw it unset")
                        ParkingLot.park(on: event.address) { true }  // the bug: the flag is not checked again
                    }
                }
                run.spawn("waker") {
                    event.flag.store(true, ordering: .releasing)
                    ParkingLot.unparkAll(event.address)
                }
                return { [] }
            }
        }
        XCTAssertEqual(reported.count, 1, "\(reported)")
        XCTAssertTrue(reported.first?.contains("deadlock") ?? false, "\(reported)")
        XCTAssertTrue(reported.first?.contains("waiter parked") ?? false, "\(reported)")
        // Let the stranded waiter go (its run was abandoned: it runs to its end).
        for event in events.value { ParkingLot.unparkAll(event.address) }
    }

    /// A toy counter incremented as a load and a store with a point between: some schedule loses an
    /// increment, and the explorer reports the violation with that schedule.
    func testTheExplorerReportsABrokenInvariantWithTheScheduleThatBrokeIt() {
        let reported = failures {
            exploreInterleavings { run in
                let counter = Atomic<Int>(0)
                for name in ["A", "B"] {
                    run.spawn(name) {
                        let seen = counter.load(ordering: .acquiring)
                        Interleaving.point("read \(seen)")
                        counter.store(seen + 1, ordering: .releasing)
                    }
                }
                return {
                    let total = counter.load(ordering: .acquiring)
                    return total == 2 ? [] : ["lost an increment: \(total)"]
                }
            }
        }
        XCTAssertEqual(reported.count, 1, "\(reported)")
        XCTAssertTrue(reported.first?.contains("lost an increment: 1") ?? false, "\(reported)")
        XCTAssertTrue(reported.first?.contains("A → at \"read 0\"; B → at \"read 0\"") ?? false, "\(reported)")
    }

    func testAStepOfAnActorThatCannotRunFailsTheScript() {
        let reported = failures {
            let run = Interleaving()
            let a = run.spawn("A") {}
            run.step(a)
            run.step(a)
        }
        XCTAssertEqual(reported.count, 1, "\(reported)")
        XCTAssertTrue(reported.first?.contains("A cannot run: it is finished") ?? false, "\(reported)")
    }

    func testPointsOutsideActorsDoNothing() {
        Interleaving.point("on the test thread")
        XCTAssertNil(Interleaving.currentActorName)
    }
}
