import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// A source failing with `TestError(attempt)` on its first `failures` subscriptions, then sending
/// `[attempt]` and completing. Synchronous.
private final class FlakySource: @unchecked Sendable {
    let failures: Int
    let subscriptions = Counter()
    let disposals = Counter()

    init(failures: Int) { self.failures = failures }

    var signal: Signal<Int, TestError> {
        Signal { observer in
            self.subscriptions.increment()
            let attempt = self.subscriptions.value
            observer.send(attempt * 100)
            if attempt <= self.failures {
                observer.sendError(TestError(attempt))
            } else {
                observer.sendCompleted()
            }
            return AnyDisposable { self.disposals.increment() }
        }
    }
}

final class ErrorHandlingTests: ResourceCheckedTestCase {
    // MARK: catch

    func testCatchSwitchesToTheReplacementOnError() {
        let source = Subject<Int, TestError>()
        let log = EventLog<Int, Never>()
        let caught = Locked<[TestError]>([])
        source.catch { error -> Signal<Int, Never> in
            caught.append(error)
            return Signal(values: [8, 9])
        }.record(into: log)
        source.send(1)
        source.sendError(TestError(3))
        XCTAssertEqual(log.events, [.next(1), .next(8), .next(9), .completed])
        XCTAssertEqual(caught.values, [TestError(3)])
    }

    func testCatchCanChangeTheFailureType() {
        struct Other: Error, Equatable {}
        let log = EventLog<Int, Other>()
        Signal<Int, TestError>(error: TestError()).catch { _ in Signal<Int, Other>(error: Other()) }
            .record(into: log)
        XCTAssertEqual(log.events, [.error(Other())])
    }

    func testCatchIsNotCalledOnCompletion() {
        let called = Flag()
        let log = EventLog<Int, Never>()
        Signal<Int, TestError>(values: [1]).catch { _ -> Signal<Int, Never> in
            called.raise()
            return .empty
        }.record(into: log)
        XCTAssertEqual(log.events, [.next(1), .completed])
        XCTAssertFalse(called.isRaised)
    }

    func testCatchDisposalDisposesTheSourceOrTheReplacement() {
        let source = FlakySource(failures: 0)
        let holder = ObserverKeeper()
        let sourceDisposed = Counter()
        let pending = Signal<Int, TestError> { observer in
            holder.keep(observer)
            return AnyDisposable { sourceDisposed.increment() }
        }
        let first = pending.catch { _ in source.signal }.subscribe()
        first.dispose()
        XCTAssertEqual(sourceDisposed.value, 1)

        let replacementDisposed = Counter()
        let replacement: @Sendable () -> Signal<Int, Never> = {
            Signal { observer in
                holder.keep(observer)
                return AnyDisposable { replacementDisposed.increment() }
            }
        }
        let second = Signal<Int, TestError>(error: TestError()).catch { _ in replacement() }.subscribe()
        XCTAssertEqual(replacementDisposed.value, 0)
        second.dispose()
        XCTAssertEqual(replacementDisposed.value, 1)
    }

    func testCatchReleasesTheHandler() {
        weak var weakTracked: Tracked?
        let subject = Subject<Int, TestError>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.catch { _ in Signal<Int, Never>(value: tracked.id) }.subscribe()
        }
        XCTAssertNotNil(weakTracked)
        subject.sendError(TestError())
        XCTAssertNil(weakTracked)
    }

    // MARK: retry

    func testRetryCountSubscribesExactlyCountPlusOneTimesAndSendsTheLastError() {
        let source = FlakySource(failures: 10)
        let log = EventLog<Int, TestError>()
        source.signal.retry(2).record(into: log)
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(log.events, [.next(100), .next(200), .next(300), .error(TestError(3))])
        XCTAssertEqual(source.disposals.value, 3)
    }

    func testRetryCountStopsAtTheFirstSuccess() {
        let source = FlakySource(failures: 1)
        let log = EventLog<Int, TestError>()
        source.signal.retry(5).record(into: log)
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(log.events, [.next(100), .next(200), .completed])
    }

    func testRetryZeroOrNegativeSubscribesOnce() {
        let zero = FlakySource(failures: 3)
        let log = EventLog<Int, TestError>()
        zero.signal.retry(0).record(into: log)
        XCTAssertEqual(zero.subscriptions.value, 1)
        XCTAssertEqual(log.events, [.next(100), .error(TestError(1))])
        let negative = FlakySource(failures: 3)
        negative.signal.retry(-2).subscribe()
        XCTAssertEqual(negative.subscriptions.value, 1)
    }

    func testRetryForeverResubscribesUntilSuccess() {
        let source = FlakySource(failures: 50)
        let log = EventLog<Int, TestError>()
        source.signal.retry().record(into: log)
        XCTAssertEqual(source.subscriptions.value, 51)
        XCTAssertEqual(log.events.last, .completed)
        XCTAssertEqual(log.values.count, 51)
    }

    func testRetryOfASynchronousSourceFailingManyTimesDoesNotGrowTheStack() {
        let source = FlakySource(failures: 20_000)
        let log = EventLog<Int, TestError>()
        source.signal.retry().record(into: log)
        XCTAssertEqual(source.subscriptions.value, 20_001)
        XCTAssertEqual(log.events.last, .completed)
    }

    func testRetryCountIsPerSubscription() {
        let source = FlakySource(failures: 100)
        let retried = source.signal.retry(1)
        retried.subscribe()
        retried.subscribe()
        XCTAssertEqual(source.subscriptions.value, 4)
    }

    func testRetryOnVirtualTimeResubscribesAfterAnAsynchronousFailure() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (2, .error(TestError(7)))])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        recorder.record(source.signal.retry(2))
        scheduler.run()
        recorder.assertEvents([(1, .next(1)), (3, .next(1)), (5, .next(1)), (6, .error(TestError(7)))])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testRetryDisposalDisposesTheCurrentAttempt() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .error(TestError()))])
        let subscription = source.signal.retry().subscribe()
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(source.disposals.value, 1)
        subscription.dispose()
        XCTAssertEqual(source.disposals.value, 2)
        scheduler.run()
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    func testRetryWhenTheErrorArrivesOnAnotherThreadDuringSubscription() {
        // The error is delivered on another thread while the recipe is still running: the retry
        // loop must pick the request up after the recipe returns, neither losing nor doubling it.
        let subscriptions = Counter()
        let source = Signal<Int, TestError> { observer in
            subscriptions.increment()
            let attempt = subscriptions.value
            let delivered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                if attempt < 4 { observer.sendError(TestError(attempt)) } else { observer.sendCompleted() }
                delivered.signal()
            }
            delivered.wait()
            return nil
        }
        let done = expectation(description: "completed")
        let log = EventLog<Int, TestError>()
        source.retry(10).subscribeEvents { event in
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(subscriptions.value, 4)
        XCTAssertEqual(log.events, [.completed])
    }

    func testRetryReleasesTheSourceAfterCompletion() {
        weak var weakTracked: Tracked?
        let subject = Subject<Int, TestError>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.map { $0 + tracked.id }.retry(3).subscribe()
        }
        XCTAssertNotNil(weakTracked)
        subject.sendCompleted()
        XCTAssertNil(weakTracked)
    }
}
