import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

@testable import Observable
@testable import TetherEngine

/// `SettledOnce`, the blocking operators' one-shot wait: the first settle wins, and a waiter is woken by it
/// whether it settled before the wait, between the waiter's check and its park, or while it was parked.
final class SettledOnceInterleavingTests: XCTestCase {
    func testTheFirstSettleWinsAndLaterOnesChangeNothing() {
        let outcome = SettledOnce<Int>()
        XCTAssertFalse(outcome.isSettled)
        XCTAssertTrue(outcome.settle(1))
        XCTAssertTrue(outcome.isSettled)
        XCTAssertFalse(outcome.settle(2))
        XCTAssertEqual(outcome.wait(), 1)
    }

    func testAWaitAfterTheSettleReturnsWithoutParking() {
        let outcome = SettledOnce<String>()
        outcome.settle("done")
        let run = Interleaving()
        let waiter = run.spawn("waiter") { XCTAssertEqual(outcome.wait(), "done") }
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(run.parks(of: waiter), 0)
    }

    func testAParkedWaiterIsWokenByTheSettleAndGetsItsResult() {
        let outcome = SettledOnce<Int>()
        let got = Locked<Int?>(nil)
        let run = Interleaving()
        let waiter = run.spawn("waiter") { got.value = outcome.wait() }
        let settler = run.spawn("settler") { outcome.settle(7) }
        XCTAssertTrue(run.step(waiter).isParked, "nothing settled yet: the waiter parks")
        XCTAssertEqual(run.step(settler), .finished)
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(got.value, 7)
        XCTAssertEqual(run.parks(of: waiter), 1)
    }

    func testEveryInterleavingOfTwoSettlersAndAWaiterEndsWithTheWinnersResult() {
        // Two outcomes race (a value and an interruption, say); whichever wins, the waiter returns exactly
        // that one, and exactly one settle reports that it set the result.
        let schedules = exploreInterleavings { run in
            let outcome = SettledOnce<Int>()
            let wins = Locked<[Int]>([])
            let got = Locked<Int?>(nil)
            run.spawn("waiter") { got.value = outcome.wait() }
            run.spawn("first settler") { if outcome.settle(1) { wins.append(1) } }
            run.spawn("second settler") { if outcome.settle(2) { wins.append(2) } }
            return {
                var violations: [String] = []
                if wins.value.count != 1 { violations.append("settles that set the result: \(wins.value)") }
                if got.value != wins.value.first {
                    violations.append("the waiter got \(String(describing: got.value)), the winner was \(wins.value)")
                }
                return violations
            }
        }
        XCTAssertGreaterThan(schedules, 2, "the waiter parked in some schedules and not in others")
    }
}
