import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// A synchronous source whose `n`-th subscription sends `n`, then completes, or fails with
/// `TestError(n)` when `n == failOn`.
private final class CountingSource: @unchecked Sendable {
    let failOn: Int?
    let subscriptions = Counter()
    let disposals = Counter()

    init(failOn: Int? = nil) { self.failOn = failOn }

    var signal: Signal<Int, TestError> {
        Signal { observer in
            self.subscriptions.increment()
            let attempt = self.subscriptions.value
            observer.send(attempt)
            if attempt == self.failOn {
                observer.sendError(TestError(attempt))
            } else {
                observer.sendCompleted()
            }
            return AnyDisposable { self.disposals.increment() }
        }
    }
}

final class RepeatTests: ResourceCheckedTestCase {
    // RAC: "should repeat after completion"
    func testRepeatResubscribesAfterCompletionAndNeverCompletes() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(7)), (2, .completed)])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        let subscription = recorder.record(source.signal.repeat())
        scheduler.advance(by: .seconds(5))
        recorder.assertEvents([(1, .next(7)), (3, .next(7)), (5, .next(7))])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 2)
        subscription.dispose()
        XCTAssertEqual(source.disposals.value, 3)
        scheduler.run()
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    // RAC: "should stop repeating upon error"
    func testRepeatStopsRepeatingUponError() {
        let source = CountingSource(failOn: 3)
        let log = EventLog<Int, TestError>()
        source.signal.repeat().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .error(TestError(3))])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 3)
    }

    // RAC: "should stop repeating when disposed"
    func testRepeatStopsRepeatingWhenDisposed() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (2, .completed)])
        let log = EventLog<Int, TestError>()
        let subscription = source.signal.repeat().record(into: log)
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(source.subscriptions.value, 2)
        subscription.dispose()
        XCTAssertEqual(source.disposals.value, 2)
        scheduler.run()
        XCTAssertEqual(log.events, [.next(1), .next(1)])
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    // RAC: "should stop repeating when disposed by -take:"
    func testRepeatStopsRepeatingWhenDisposedByTake() {
        let source = CountingSource()
        let log = EventLog<Int, TestError>()
        source.signal.repeat().take(3).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 3)
    }

    func testRepeatOfASynchronousSourceWithTakeThreeSendsThreeValues() {
        let log = EventLog<Int, Never>()
        Signal(value: 1).repeat().take(3).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(1), .next(1), .completed])
    }

    func testRepeatOfASynchronousSourceManyTimesDoesNotGrowTheStack() {
        let source = CountingSource()
        let log = EventLog<Int, TestError>()
        source.signal.repeat().take(20_000).record(into: log)
        XCTAssertEqual(source.subscriptions.value, 20_000)
        XCTAssertEqual(log.count, 20_001)
        XCTAssertEqual(log.events.last, .completed)
    }

    func testRepeatSubscribesTheSourceOncePerSubscription() {
        let source = CountingSource(failOn: 2)
        let repeated = source.signal.repeat()
        XCTAssertEqual(source.subscriptions.value, 0)
        repeated.subscribe()
        XCTAssertEqual(source.subscriptions.value, 2)
    }
}
