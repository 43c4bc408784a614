import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class DateIntervalTests: ResourceCheckedTestCase {
    func testDateIntervalSendsTheCurrentDateEveryPeriodStartingOnePeriodAfterSubscription() {
        let scheduler = TestScheduler()
        let log = EventLog<Date, Never>()
        let before = Date()
        let subscription = Signal.interval(.seconds(2), on: scheduler, leeway: .zero).record(into: log)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.count, 0)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.count, 1)
        scheduler.advance(by: .seconds(4))
        XCTAssertEqual(log.count, 3)
        let after = Date()
        XCTAssertTrue(log.values.allSatisfy { $0 >= before && $0 <= after })
        XCTAssertEqual(log.values, log.values.sorted())
        XCTAssertFalse(log.events.contains { $0.isTerminal })
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDateIntervalAcceptsLeewayWithoutChangingWhenTicksFire() {
        let scheduler = TestScheduler()
        let log = EventLog<Date, Never>()
        Signal.interval(.seconds(1), on: scheduler, leeway: .milliseconds(500)).record(into: log)
        scheduler.advance(by: .milliseconds(999))
        XCTAssertEqual(log.count, 0)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(log.count, 1)
    }

    func testDateIntervalStartsOneTimerPerSubscription() {
        let scheduler = TestScheduler()
        let ticks = Signal.interval(.seconds(1), on: scheduler, leeway: .zero)
        let first = EventLog<Date, Never>()
        let second = EventLog<Date, Never>()
        ticks.record(into: first)
        scheduler.advance(by: .milliseconds(500))
        ticks.record(into: second)
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(second.count, 0)
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(second.count, 1)
    }

    func testDisposingTheDateIntervalStopsTheTimer() {
        let scheduler = TestScheduler()
        let log = EventLog<Date, Never>()
        let subscription = Signal.interval(.seconds(1), on: scheduler, leeway: .zero).record(into: log)
        scheduler.advance(by: .seconds(1))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(log.count, 1)
    }
}
