import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class DeliverOnTests: ResourceCheckedTestCase {
    func testDeliversEveryEventOnTheSchedulerInOrder() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.deliver(on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(10))
        subject.send(3)
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 0)])
        scheduler.advance()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 0), .next(3, at: 10), .completed(at: 10)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testErrorsAreDeliveredOnTheSchedulerAfterEarlierValues() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.deliver(on: scheduler).record(into: log)
        subject.send(1)
        subject.sendError(TestError(6))
        XCTAssertEqual(log.entries, [])
        scheduler.advance()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .error(TestError(6), at: 0)])
    }

    func testEachEventIsScheduledWhenItIsSentAsRACsDeliverOnDoes() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = subject.deliver(on: scheduler).record(into: log)
        for value in 0..<100 { subject.send(value) }
        XCTAssertEqual(scheduler.pendingCount, 100)
        scheduler.advance()
        XCTAssertEqual(log.values, Array(0..<100))
        XCTAssertEqual(scheduler.pendingCount, 0)
        subscription.dispose()
    }

    /// RAC 2.5 (issue 15, item 4): two signals delivering on one scheduler keep the order in which their
    /// events were sent: `first` (b), `second` (a), `third` (b).
    func testDeliverOnKeepsTheOrderOfEventsAcrossSignalsDeliveredOnTheSameScheduler() {
        let scheduler = TestScheduler()
        let a = Subject<String, Never>()
        let b = Subject<String, Never>()
        var received: [String] = []
        let first = a.deliver(on: scheduler).subscribe(next: { received.append($0) })
        let second = b.deliver(on: scheduler).subscribe(next: { received.append($0) })
        b.send("first")
        a.send("second")
        b.send("third")
        scheduler.advance()
        XCTAssertEqual(received, ["first", "second", "third"])
        first.dispose()
        second.dispose()
    }

    func testDisposingCancelsEveryScheduledDelivery() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        let subscription = subject.deliver(on: scheduler).subscribe(next: { received.append($0) })
        for value in 0..<10 { subject.send(value) }
        XCTAssertEqual(scheduler.pendingCount, 10)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance()
        XCTAssertEqual(received, [])
    }

    func testSynchronousSourceIsDeliveredAfterItsOwnSubscriptionEnded() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        probe.signal.deliver(on: scheduler).record(into: log)
        probe.send(1)
        probe.sendCompleted()
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .completed(at: 0)])
    }

    func testDisposingDisposesTheSourceAndCancelsThePendingDelivery() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.deliver(on: scheduler).record(into: log)
        probe.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }

    func testDisposingFromInsideADeliveryStopsTheRestOfTheBurst() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = subject.deliver(on: scheduler).subscribe(next: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.send(1)
        subject.send(2)
        scheduler.run()
        XCTAssertEqual(received, [1])
    }

    func testCompletionReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.deliver(on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        subject.send(1)
        subject.sendCompleted()
        XCTAssertNotNil(weakTracked)
        scheduler.run()
        XCTAssertNil(weakTracked)
    }

    func testImmediateSchedulerDeliversSynchronously() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        subject.deliver(on: ImmediateScheduler.shared).record(into: log)
        subject.send(1)
        XCTAssertEqual(log.events, [.next(1)])
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testQueueSchedulerKeepsOrderAcrossTenThousandValuesOnItsQueue() {
        let scheduler = QueueScheduler(name: "deliver-order")
        let subject = Subject<Int, Never>()
        let done = expectation(description: "completed")
        let received = Locked<[Int]>([])
        let offQueue = Counter()
        subject.deliver(on: scheduler).subscribe(
            next: { value in
                if !scheduler.isCurrent { offQueue.increment() }
                received.append(value)
            },
            completed: { done.fulfill() })
        DispatchQueue.global().async {
            for value in 0..<10_000 { subject.send(value) }
            subject.sendCompleted()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(received.values, Array(0..<10_000))
        XCTAssertEqual(offQueue.value, 0)
    }

    func testQueueSchedulerKeepsEachSendersOrderWithSeveralSendingThreads() {
        let scheduler = QueueScheduler(name: "deliver-many")
        let subject = Subject<Int, Never>()
        let received = Locked<[Int]>([])
        let done = expectation(description: "completed")
        subject.deliver(on: scheduler).subscribe(next: { received.append($0) }, completed: { done.fulfill() })
        // Each thread sends its own increasing sequence; per thread, order must hold.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<2_500 { subject.send(thread * 10_000 + index) }
        }
        subject.sendCompleted()
        wait(for: [done], timeout: 30)
        let values = received.values
        XCTAssertEqual(values.count, 10_000)
        for thread in 0..<4 {
            XCTAssertEqual(values.filter { $0 / 10_000 == thread }, (0..<2_500).map { thread * 10_000 + $0 })
        }
    }

    func testNothingIsDeliveredAfterDisposeReturns() {
        for _ in 0..<10 {
            let scheduler = QueueScheduler(name: "deliver-dispose")
            let subject = Subject<Int, Never>()
            let disposedFlag = Flag()
            let late = Counter()
            let delivered = Counter()
            let subscription = subject.deliver(on: scheduler).subscribe(next: { _ in
                if disposedFlag.isRaised { late.increment() }
                delivered.increment()
            })
            // A bounded producer: the subject's gate lets whichever thread owns it drain the other
            // senders' queue, so an endless sender could keep the disposing thread busy forever.
            let producerDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<20_000 { subject.send(value) }
                producerDone.signal()
            }
            waitUntil { delivered.value >= 100 }
            subscription.dispose()
            disposedFlag.raise()
            producerDone.wait()
            scheduler.queue.sync {}
            XCTAssertEqual(late.value, 0)
            XCTAssertTrue(subscription.isDisposed)
        }
    }
}

final class SubscribeOnTests: ResourceCheckedTestCase {
    func testSubscriptionStartsOnTheScheduler() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        scheduler.advance(to: .seconds(1))
        probe.signal.subscribe(on: scheduler).record(into: log)
        XCTAssertEqual(probe.subscriptions, 0)
        scheduler.advance()
        XCTAssertEqual(probe.subscriptions, 1)
        probe.send(1)
        probe.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 1000), .completed(at: 1000)])
        XCTAssertEqual(probe.disposals, 1)
    }

    func testSynchronousSourceRunsWhenTheSchedulerRuns() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        Signal<Int, TestError>(values: [1, 2]).concatError(TestError(3))
            .subscribe(on: scheduler)
            .record(into: log)
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(5))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 0), .error(TestError(3), at: 0)])
    }

    func testDisposingBeforeItStartsCancelsTheSubscription() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let subscription = probe.signal.subscribe(on: scheduler).subscribe()
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(probe.subscriptions, 0)
    }

    func testDisposingAfterItStartedDisposesTheSource() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.subscribe(on: scheduler).record(into: log)
        scheduler.advance()
        probe.send(1)
        subscription.dispose()
        XCTAssertEqual(probe.disposals, 1)
        probe.send(2)
        XCTAssertEqual(log.values, [1])
    }

    func testDisposingReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.subscribe(on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        scheduler.advance()
        XCTAssertNotNil(weakTracked)
        subscription?.dispose()
        XCTAssertNil(weakTracked)
    }

    func testRecipeRunsOnTheQueueSchedulersQueue() {
        let scheduler = QueueScheduler(name: "subscribe-on")
        let ranOnQueue = Flag()
        let done = expectation(description: "completed")
        let log = EventLog<Int, Never>()
        let source = Signal<Int, Never> { observer in
            if scheduler.isCurrent { ranOnQueue.raise() }
            observer.send(1)
            observer.sendCompleted()
            return nil
        }
        source.subscribe(on: scheduler).subscribeEvents { event in
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(ranOnQueue.isRaised)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testNothingIsDeliveredAfterDisposeReturnsFromAnotherThread() {
        for _ in 0..<20 {
            let scheduler = QueueScheduler(name: "subscribe-on-dispose")
            let disposedFlag = Flag()
            let late = Counter()
            let delivered = Counter()
            let endless = Signal<Int, Never>(values: 0...)
            let subscription = endless.subscribe(on: scheduler).subscribe(next: { _ in
                if disposedFlag.isRaised { late.increment() }
                delivered.increment()
            })
            waitUntil { delivered.value >= 100 }
            subscription.dispose()
            disposedFlag.raise()
            scheduler.queue.sync {}
            XCTAssertEqual(late.value, 0)
        }
    }
}

extension Signal {
    /// Sends this signal's values, then fails with `error` instead of completing (for tests).
    fileprivate func concatError(_ error: Failure) -> Signal {
        concat(Signal(error: error))
    }
}
