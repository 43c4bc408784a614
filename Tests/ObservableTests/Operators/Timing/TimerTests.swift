import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class TimerTests: ResourceCheckedTestCase {
    func testTimerSendsOnceAfterTheDelayThenCompletes() {
        let scheduler = TestScheduler()
        let log = EventLog<Void, Never>()
        Signal.timer(after: .seconds(3), on: scheduler).record(into: log)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(log.count, 0)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.count, 2)
        XCTAssertNotNil(log.events.first?.value)
        XCTAssertEqual(log.events.last?.isTerminal, true)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testEachSubscriptionStartsItsOwnTimer() {
        let scheduler = TestScheduler()
        let timer = Signal.timer(after: .seconds(2), on: scheduler)
        let first = EventLog<Void, Never>()
        let second = EventLog<Void, Never>()
        timer.record(into: first)
        scheduler.advance(by: .seconds(1))
        timer.record(into: second)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(second.count, 0)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(second.count, 2)
    }

    func testDisposingBeforeItFiresCancelsTheScheduledWork() {
        let scheduler = TestScheduler()
        let log = EventLog<Void, Never>()
        let subscription = Signal.timer(after: .seconds(1), on: scheduler).record(into: log)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.count, 0)
    }

    func testTimerFiresOnAQueueScheduler() {
        let scheduler = QueueScheduler(name: "observable.tests.timer")
        let fired = XCTestExpectation(description: "fired on the queue")
        let completed = XCTestExpectation(description: "completed")
        Signal.timer(after: .milliseconds(1), on: scheduler).subscribe(
            next: { if scheduler.isCurrent { fired.fulfill() } },
            completed: { completed.fulfill() })
        wait(for: [fired, completed], timeout: 10, enforceOrder: true)
    }
}
