import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's `+startLazilyWithScheduler:block:` and `+startEagerlyWithScheduler:block:`
/// (RACSignalSpec "+startLazilyWithScheduler:block:", "+startEagerlyWithScheduler:block:").
final class StartOnTests: ResourceCheckedTestCase {
    func testStartLazilyShouldNotStartImmediately() {
        let scheduler = TestScheduler()
        let runs = Counter()
        _ = Signal<Int, Never>.startLazily(on: scheduler) { observer in
            runs.increment()
            observer.sendCompleted()
        }
        scheduler.run()
        XCTAssertEqual(runs.value, 0)
    }

    func testStartLazilyShouldStartOnTheSchedulerAtTheFirstSubscription() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int, Never>.startLazily(on: scheduler) { observer in
            runs.increment()
            observer.send(42)
            observer.sendCompleted()
        }
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        // The block runs on the scheduler, not in `subscribe`.
        XCTAssertEqual(runs.value, 0)
        scheduler.advance()
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(log.values, [42])
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testStartLazilyShouldOnlyInvokeTheBlockOnceAndReplayItsEvents() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int, TestError>.startLazily(on: scheduler) { observer in
            runs.increment()
            observer.send(1)
            observer.send(2)
            observer.sendError(TestError(3))
        }
        let first = EventLog<Int, TestError>()
        let second = EventLog<Int, TestError>()
        signal.record(into: first)
        signal.record(into: second)
        scheduler.advance()
        let late = EventLog<Int, TestError>()
        signal.record(into: late)
        scheduler.advance()
        XCTAssertEqual(runs.value, 1)
        for log in [first, second, late] {
            XCTAssertEqual(log.values, [1, 2])
            XCTAssertEqual(log.events.last?.error, TestError(3))
        }
    }

    func testStartLazilyDeliversAsynchronousEventsToEverySubscriber() {
        let scheduler = TestScheduler()
        let source = Subject<Int, Never>()
        let signal = Signal<Int, Never>.startLazily(on: scheduler) { observer in
            source.subscribe(observer)
        }
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        scheduler.advance()
        source.send(1)
        source.send(2)
        XCTAssertEqual(log.values, [1, 2])
        source.sendCompleted()
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testStartEagerlyShouldStartOnTheSchedulerWithoutASubscriber() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<String, Never>.startEagerly(on: scheduler) { observer in
            runs.increment()
            observer.send("token")
            observer.sendCompleted()
        }
        XCTAssertEqual(runs.value, 0)
        scheduler.advance()
        XCTAssertEqual(runs.value, 1)
        let log = EventLog<String, Never>()
        signal.record(into: log)
        scheduler.advance()
        XCTAssertEqual(log.values, ["token"])
        XCTAssertEqual(log.events.last?.isTerminal, true)
        signal.record(into: EventLog<String, Never>())
        scheduler.run()
        XCTAssertEqual(runs.value, 1)
    }

    func testStartEagerlyOnTheImmediateSchedulerStartsAtOnce() {
        let runs = Counter()
        let signal = Signal<Int, Never>.startEagerly(on: ImmediateScheduler.shared) { observer in
            runs.increment()
            observer.send(7)
            observer.sendCompleted()
        }
        XCTAssertEqual(runs.value, 1)
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.values, [7])
        XCTAssertEqual(runs.value, 1)
    }
}
