import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class IntervalTests: ResourceCheckedTestCase {
    func testIntervalTicksZeroOneTwoAtEachPeriod() {
        expectLiveSubscriptions("a timer on a TestScheduler is never disposed")
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        Signal.interval(.milliseconds(100), on: scheduler).record(into: log)
        scheduler.advance(by: .milliseconds(99))
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(251))
        XCTAssertEqual(log.entries, [.next(0, at: 100), .next(1, at: 200), .next(2, at: 300)])
    }

    func testEachSubscriptionCountsFromZeroOnItsOwnClock() {
        expectLiveSubscriptions("a timer on a TestScheduler is never disposed")
        let scheduler = TestScheduler()
        let ticks = Signal.interval(.seconds(1), on: scheduler)
        let first = VirtualTimeLog<Int, Never>(scheduler)
        let second = VirtualTimeLog<Int, Never>(scheduler)
        ticks.record(into: first)
        scheduler.advance(by: .milliseconds(1500))
        ticks.record(into: second)
        scheduler.advance(to: .milliseconds(3000))
        XCTAssertEqual(first.entries, [.next(0, at: 1000), .next(1, at: 2000), .next(2, at: 3000)])
        XCTAssertEqual(second.entries, [.next(0, at: 2500)])
    }

    func testDisposingStopsTheTimerAndCancelsScheduledWork() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = Signal.interval(.seconds(1), on: scheduler).record(into: log)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(log.values, [0, 1])
    }

    func testDisposingFromInsideATickStopsTheTimer() {
        let scheduler = TestScheduler()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = Signal.interval(.seconds(1), on: scheduler).subscribe(next: { tick in
            received.append(tick)
            if tick == 2 { subscription?.dispose() }
        })
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(received, [0, 1, 2])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = Signal.interval(.seconds(1), on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertNotNil(weakTracked)
        subscription?.dispose()
        XCTAssertNil(weakTracked)
    }

    func testZeroPeriodStillAdvancesVirtualTime() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = Signal.interval(.zero, on: scheduler).record(into: log)
        scheduler.advance(by: .nanoseconds(3))
        subscription.dispose()
        XCTAssertEqual(log.values, [0, 1, 2])
    }
}

final class DelayTests: ResourceCheckedTestCase {
    func testDelaySendsValuesAndCompletionLaterInOrder() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.delay(.milliseconds(500), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .milliseconds(300))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(
            log.entries,
            [.next(1, at: 500), .next(2, at: 600), .next(3, at: 600), .completed(at: 900)])
    }

    func testDelayKeepsOrderAcrossManyValuesAtTheSameTime() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        Signal(values: 0..<1000).delay(.seconds(1), on: scheduler).record(into: log)
        scheduler.advance(by: .milliseconds(999))
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(log.values, Array(0..<1000))
        XCTAssertEqual(log.entries.last, .completed(at: 1000))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDelayUsesOneTimerAtATime() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.delay(.seconds(1), on: scheduler).record(into: log)
        for value in 0..<10 {
            subject.send(value)
            scheduler.advance(by: .milliseconds(10))
        }
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(log.entries, (0..<10).map { .next($0, at: 1000 + $0 * 10) })
    }

    func testDelayForwardsErrorsAtOnceAndDropsHeldValues() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.delay(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(200))
        subject.sendError(TestError(4))
        XCTAssertEqual(log.entries, [.error(TestError(4), at: 200)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(log.entries, [.error(TestError(4), at: 200)])
    }

    func testDisposingDisposesTheSourceAndCancelsHeldEvents() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.delay(.seconds(1), on: scheduler).record(into: log)
        probe.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(probe.disposals, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }

    func testHeldEventsSurviveTheSourceEndingItsOwnSubscription() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        probe.signal.delay(.seconds(1), on: scheduler).record(into: log)
        probe.send(7)
        probe.sendCompleted()
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [.next(7, at: 1000), .completed(at: 1000)])
    }

    func testCompletionReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.delay(.seconds(1), on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        subject.send(1)
        subject.sendCompleted()
        XCTAssertNotNil(weakTracked)
        scheduler.run()
        XCTAssertNil(weakTracked)
    }

    func testDisposingFromInsideADeliveryStopsTheRestOfTheBatch() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        var completed = 0
        var subscription: (any Disposable)?
        subscription = subject.delay(.seconds(1), on: scheduler).subscribe(
            next: { value in
                received.append(value)
                subscription?.dispose()
            },
            completed: { completed += 1 })
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        scheduler.run()
        XCTAssertEqual(received, [1])
        XCTAssertEqual(completed, 0)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}

final class TimeoutTests: ResourceCheckedTestCase {
    func testTimeoutRaisesTheGivenErrorAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        probe.signal.timeout(after: .seconds(2), raising: TestError(9), on: scheduler).record(into: log)
        probe.send(1)
        scheduler.advance(by: .milliseconds(1999))
        XCTAssertEqual(probe.disposals, 0)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .error(TestError(9), at: 2000)])
        XCTAssertEqual(probe.disposals, 1)
        probe.send(2)
        XCTAssertEqual(log.entries.count, 2)
    }

    func testValuesDoNotRestartTheClock() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.timeout(after: .seconds(1), raising: TestError(2), on: scheduler).record(into: log)
        scheduler.advance(by: .milliseconds(600))
        subject.send(1)
        scheduler.advance(by: .milliseconds(600))
        XCTAssertEqual(log.entries, [.next(1, at: 600), .error(TestError(2), at: 1000)])
    }

    func testTimeoutNeverFiresAfterCompletion() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.timeout(after: .seconds(1), raising: TestError(2), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(500))
        subject.sendCompleted()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .completed(at: 500)])
    }

    func testSourceErrorsPassThroughAndCancelTheTimer() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.timeout(after: .seconds(1), raising: TestError(2), on: scheduler).record(into: log)
        scheduler.advance(by: .milliseconds(300))
        subject.sendError(TestError(5))
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries, [.error(TestError(5), at: 300)])
    }

    func testSynchronousSourceFinishesBeforeTheTimeout() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        Signal<Int, TestError>(values: [1, 2])
            .timeout(after: .seconds(1), raising: TestError(2), on: scheduler)
            .record(into: log)
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 0), .completed(at: 0)])
    }

    func testDisposingCancelsTheTimeoutAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        let subscription = probe.signal
            .timeout(after: .seconds(1), raising: TestError(2), on: scheduler)
            .record(into: log)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }

    func testTimeoutReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.timeout(after: .seconds(1), raising: TestError(), on: scheduler)
                .subscribe(error: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        scheduler.run()
        XCTAssertNil(weakTracked)
    }
}
