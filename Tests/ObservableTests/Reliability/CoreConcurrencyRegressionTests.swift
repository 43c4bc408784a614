import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// The deadlocks and races of issue 14's adversarial review, one test each, plus the backlog bound.
///
/// A hang becomes a failure through a watchdog (`runThreads`' timeout, or `waitOrFail`); nothing here
/// asserts a duration. Loops repeat a race often enough that the old core hit it in most runs.
final class CoreConcurrencyRegressionTests: ResourceCheckedTestCase {
    // MARK: 1 — no user code involved

    func testTwoSubscriptionsToMergeTakeOneFedFromTwoThreadsDoNotDeadlock() {
        for _ in 0..<StressScale.scaled(2_000) {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            let merged = Signal.merge(a, b).take(1)
            let first = merged.subscribe(next: { _ in })
            let second = merged.subscribe(next: { _ in })
            guard runThreads(2, timeout: 60, { index in (index == 0 ? a : b).send(index) }) else { return }
            first.dispose()
            second.dispose()
        }
    }

    func testTwoMergesEachFailingOnItsOwnThreadDoNotDeadlock() {
        for _ in 0..<StressScale.scaled(2_000) {
            let a = Subject<Int, TestError>()
            let b = Subject<Int, TestError>()
            let first = Signal.merge(a, b).subscribe(error: { _ in })
            let second = Signal.merge(b, a).subscribe(error: { _ in })
            guard runThreads(2, timeout: 60, { index in (index == 0 ? a : b).sendError(TestError(index)) })
            else { return }
            first.dispose()
            second.dispose()
        }
    }

    // MARK: 2 — disposing an idle subscription while holding a lock another subscriber needs

    /// Starts a delivery on another thread to a subscriber that then waits for `userLock`, which this
    /// thread holds while it disposes `idle`: dispose must not wait for that other subscriber.
    private func assertDisposingIdleWhileHoldingALockDoesNotWait(
        file: StaticString = #filePath, line: UInt = #line,
        subscribeBusy: (@escaping @Sendable () -> Void) -> any Disposable,
        subscribeIdle: () -> any Disposable,
        deliver: @escaping @Sendable () -> Void
    ) {
        let userLock = NSLock()
        let inside = DispatchSemaphore(value: 0)
        let armed = Atomic<Bool>(false)
        let busy = subscribeBusy {
            guard armed.load(ordering: .acquiring) else { return }
            inside.signal()
            userLock.lock()
            userLock.unlock()
        }
        let idle = subscribeIdle()
        armed.store(true, ordering: .releasing)
        userLock.lock()
        let delivered = DispatchSemaphore(value: 0)
        Thread {
            deliver()
            delivered.signal()
        }.start()
        guard waitOrFail(inside, within: 60, "the other subscriber's delivery", file: file, line: line) else {
            userLock.unlock()
            return
        }
        let disposed = DispatchSemaphore(value: 0)
        Thread {
            idle.dispose()
            disposed.signal()
        }.start()
        let returned = waitOrFail(disposed, within: 30, "dispose() of the idle subscription", file: file, line: line)
        userLock.unlock()
        _ = waitOrFail(delivered, within: 60, "the delivery", file: file, line: line)
        _ = returned
        busy.dispose()
    }

    func testDisposingAnIdleSubjectSubscriptionWhileHoldingALockAnotherSubscriberNeedsDoesNotDeadlock() {
        let subject = Subject<Int, Never>()
        assertDisposingIdleWhileHoldingALockDoesNotWait(
            subscribeBusy: { body in subject.subscribe(next: { _ in body() }) },
            subscribeIdle: { subject.subscribe(next: { _ in }) },
            deliver: { subject.send(1) })
    }

    func testDisposingAnIdleMutablePropertySubscriptionWhileHoldingALockAnotherSubscriberNeedsDoesNotDeadlock() {
        let property = MutableProperty(0)
        assertDisposingIdleWhileHoldingALockDoesNotWait(
            subscribeBusy: { body in property.signal.subscribe(next: { _ in body() }) },
            subscribeIdle: { property.signal.subscribe(next: { _ in }) },
            deliver: { property.value = 1 })
    }

    func testDisposingAnIdleObservationWhileHoldingALockAnotherObserverNeedsDoesNotDeadlock() {
        let model = CounterModel()
        let box = UncheckedBox(model)
        assertDisposingIdleWhileHoldingALockDoesNotWait(
            subscribeBusy: { body in model.observe(\.count).subscribe(next: { _ in body() }) },
            subscribeIdle: { model.observe(\.count).subscribe(next: { _ in }) },
            // The model is set from one thread at a time (this one), as @Observed requires.
            deliver: { box.value.count = 1 })
    }

    // MARK: 3 — a reentrant pump

    func testDisposeReturnsWhileASubscriberKeepsSendingIntoItsOwnSubject() {
        let subject = Subject<Int, Never>()
        let pumping = DispatchSemaphore(value: 0)
        let stop = Flag()
        let other = subject.subscribe(next: { _ in })
        let pump = subject.subscribe(next: { value in
            if value == 1 { pumping.signal() }
            if !stop.isRaised && value < 50_000_000 { subject.send(value + 1) }
        })
        let finished = DispatchSemaphore(value: 0)
        Thread {
            subject.send(0)
            finished.signal()
        }.start()
        guard waitOrFail(pumping, within: 60, "the pump") else { return }
        let disposed = DispatchSemaphore(value: 0)
        Thread {
            other.dispose()  // another subscriber of the pumping subject
            pump.dispose()  // the pump itself
            disposed.signal()
        }.start()
        _ = waitOrFail(disposed, within: 60, "dispose() behind a reentrant pump")
        stop.raise()
        _ = waitOrFail(finished, within: 60, "the pump's end")
    }

    // MARK: 4 — a terminal callback in flight

    func testDisposeWaitsForATerminalCallbackRunningOnAnotherThread() {
        for _ in 0..<StressScale.scaled(20) {
            let started = DispatchSemaphore(value: 0)
            let finishedCallback = Flag()
            let signal = Signal<Int, Never> { observer in
                Thread { observer.sendCompleted() }.start()
                return nil
            }
            let subscription = signal.subscribe(completed: {
                started.signal()
                usleep(20_000)
                finishedCallback.raise()
            })
            guard waitOrFail(started, within: 60, "the completion callback") else { return }
            subscription.dispose()
            XCTAssertTrue(finishedCallback.isRaised, "dispose() returned while the completion callback still ran")
        }
    }

    // MARK: 5 — a second concurrent dispose of a composite

    func testASecondConcurrentDisposeReturnsOnlyAfterTheChildrenAreDisposed() {
        for _ in 0..<StressScale.scaled(20) {
            let childDisposed = Flag()
            let firstStarted = DispatchSemaphore(value: 0)
            let composite = CompositeDisposable()
            composite.add(
                AnyDisposable {
                    firstStarted.signal()
                    usleep(30_000)
                    childDisposed.raise()
                })
            let firstDone = DispatchSemaphore(value: 0)
            Thread {
                composite.dispose()
                firstDone.signal()
            }.start()
            guard waitOrFail(firstStarted, within: 60, "the first dispose") else { return }
            composite.dispose()
            XCTAssertTrue(childDisposed.isRaised, "the second dispose() returned before the children were disposed")
            _ = waitOrFail(firstDone, within: 60, "the first dispose's return")
        }
    }

    // MARK: 6 — SerialDisposable.inner set and read concurrently

    func testSerialDisposableInnerReadWhileAnotherThreadReplacesItDoesNotCrash() {
        let serial = SerialDisposable()
        let stop = Flag()
        let reads = Atomic<Int>(0)
        let rounds = StressScale.scaled(2_000_000)
        runThreads(2) { index in
            if index == 0 {
                var count = 0
                while !stop.isRaised && count < rounds * 4 {
                    serial.inner = AnyDisposable()
                    count += 1
                }
            } else {
                for _ in 0..<rounds {
                    if let inner = serial.inner, !inner.isDisposed { reads.add(1, ordering: .relaxed) }
                }
                stop.raise()
            }
        }
        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
    }

    // MARK: 7 — BehaviorSubject.value after a queued or reentrant send

    func testBehaviorSubjectValueIsTheLatestSentWhileItsDeliveryIsQueuedBehindAnotherThread() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        subject.subscribe(next: { value in
            if value == 1 {
                inside.signal()
                release.wait()
            }
        })
        let delivered = DispatchSemaphore(value: 0)
        Thread {
            subject.send(1)
            delivered.signal()
        }.start()
        guard waitOrFail(inside, within: 60, "the delivery of 1") else { return }
        subject.send(2)  // queued behind the delivery in progress
        XCTAssertEqual(subject.value, 2, "value is the latest value sent")
        release.signal()
        _ = waitOrFail(delivered, within: 60, "the deliveries")
        XCTAssertEqual(subject.value, 2)
    }

    func testBehaviorSubjectValueIsTheLatestSentFromInsideItsOwnSubscriber() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        var seenInside: Int?
        let subscription = subject.subscribe(next: { value in
            if value == 1 {
                subject.send(2)  // reentrant: queued behind this delivery
                seenInside = subject.value
            }
        })
        subject.send(1)
        XCTAssertEqual(seenInside, 2)
        XCTAssertEqual(subject.value, 2)
        subscription.dispose()  // the closure holds the subject
    }

    // MARK: 8 — MutableProperty.modify and readers

    func testReadersAreNotBlockedWhileAModifyClosureRuns() {
        let property = MutableProperty(1)
        let inside = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let read = Atomic<Int>(-1)
        Thread {
            _ = inside.wait(timeout: .now() + 60)
            read.store(property.value, ordering: .releasing)  // must not wait for the modify
            readerDone.signal()
        }.start()
        let finished = property.modify { value -> Bool in
            value = 10
            inside.signal()
            // The reader must get through while this closure still runs.
            return readerDone.wait(timeout: .now() + 30) == .success
        }
        XCTAssertTrue(finished, "a reader waited for a running modify closure")
        XCTAssertEqual(read.load(ordering: .acquiring), 1, "the reader saw the value before the modify")
        XCTAssertEqual(property.value, 10)
    }

    func testModifyStaysAtomicWhileOtherThreadsSetAndModify() {
        let property = MutableProperty(0)
        let perThread = StressScale.scaled(20_000)
        runThreads(4) { index in
            for _ in 0..<perThread {
                if index < 3 {
                    property.modify { $0 += 1 }
                } else {
                    _ = property.value
                }
            }
        }
        XCTAssertEqual(property.value, 3 * perThread, "no increment lost")
    }

    // MARK: The backlog is bounded, nothing is lost, all delivered when the senders return

    func testEightSendersIntoASlowSubscriberKeepTheBacklogWithinTheBoundAndLoseNothing() {
        let subject = Subject<Int, Never>()
        let perSender = StressScale.scaled(20_000)
        let received = Atomic<Int>(0)
        let maximum = Atomic<Int>(0)
        let subscription = subject.subscribe(next: { _ in
            // A slow subscriber: the senders outrun it.
            var spin = 0
            for step in 0..<200 { spin &+= step }
            withExtendedLifetime(spin) {}
            received.add(1, ordering: .relaxed)
            let queued = subject.queuedCount
            if queued > maximum.load(ordering: .relaxed) { maximum.store(queued, ordering: .relaxed) }
        })
        runThreads(8) { _ in
            for value in 0..<perSender { subject.send(value) }
        }
        XCTAssertEqual(
            received.load(ordering: .relaxed), 8 * perSender, "every value delivered when the senders return")
        XCTAssertLessThanOrEqual(
            maximum.load(ordering: .relaxed), Subject<Int, Never>.backlogLimit, "the backlog stays within its bound")
        subscription.dispose()
    }

    // MARK: dispose leaves another thread's flood to its senders

    /// Floods the source from two other threads and, `rounds` times while the flood runs, subscribes and
    /// disposes on this thread. Asserts that the listener (another subscriber) is never called on this
    /// thread from inside `dispose()`, and that every value sent reached it (after the `initialValues` it
    /// receives on subscribing). (`subscribe` may deliver: see ThreadingAndLifetimes.)
    private func assertDisposeNeverDeliversTheFloodOnThisThread(
        initialValues: Int = 0,
        subscribeListener: (@escaping @Sendable () -> Void) -> any Disposable,
        subscribe: () -> any Disposable,
        send: @escaping @Sendable () -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let rounds = StressScale.scaled(2_000)
        let me = currentThreadID
        let deliveredHere = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        let flooding = DispatchSemaphore(value: 0)
        let listener = subscribeListener {
            if delivered.add(1, ordering: .relaxed).newValue == 1 { flooding.signal() }
            if currentThreadID == me { deliveredHere.add(1, ordering: .relaxed) }
        }
        let stop = Flag()
        let sent = Atomic<Int>(0)
        // Two senders: while one delivers, the other queues behind it, as a flood does.
        let senders = (0..<2).map { _ in
            startThread {
                while !stop.isRaised {
                    send()
                    sent.add(1, ordering: .relaxed)
                }
            }
        }
        var byDispose = 0
        if waitOrFail(flooding, "the flood's first value", file: file, line: line) {
            for _ in 0..<rounds {
                // Each round starts while the flood is running (a sender delivered since the last one).
                let before = delivered.load(ordering: .relaxed)
                waitUntil(file: file, line: line) { delivered.load(ordering: .relaxed) != before }
                let subscription = subscribe()
                let subscribed = deliveredHere.load(ordering: .relaxed)
                subscription.dispose()
                byDispose += deliveredHere.load(ordering: .relaxed) - subscribed
            }
        }
        stop.raise()
        for sender in senders { waitOrFail(sender, "the senders' return", file: file, line: line) }
        XCTAssertEqual(
            delivered.load(ordering: .relaxed), initialValues + sent.load(ordering: .relaxed), "every value delivered",
            file: file, line: line)
        // Before, a dispose that found the source idle delivered the flood until the backlog filled.
        XCTAssertEqual(byDispose, 0, "values of the flood delivered inside dispose()", file: file, line: line)
        listener.dispose()
    }

    func testDisposeNeverDeliversAnotherThreadsFloodToOtherSubjectSubscribers() {
        let subject = Subject<Int, Never>()
        assertDisposeNeverDeliversTheFloodOnThisThread(
            subscribeListener: { body in subject.subscribe(next: { _ in body() }) },
            subscribe: { subject.subscribe(next: { _ in }) },
            send: { subject.send(1) })
    }

    func testDisposeNeverDeliversAnotherThreadsFloodToOtherReplaySubjectSubscribers() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        assertDisposeNeverDeliversTheFloodOnThisThread(
            subscribeListener: { body in subject.subscribe(next: { _ in body() }) },
            subscribe: { subject.subscribe(next: { _ in }) },
            send: { subject.send(1) })
    }

    func testDisposeNeverDeliversAnotherThreadsFloodToOtherBehaviorSubjectSubscribers() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        assertDisposeNeverDeliversTheFloodOnThisThread(
            initialValues: 1,
            subscribeListener: { body in subject.subscribe(next: { _ in body() }) },
            subscribe: { subject.subscribe(next: { _ in }) },
            send: { subject.send(1) })
    }

    func testDisposeNeverDeliversAnotherThreadsSetsToOtherMutablePropertySubscribers() {
        let property = MutableProperty(0)
        assertDisposeNeverDeliversTheFloodOnThisThread(
            initialValues: 1,
            subscribeListener: { body in property.signal.subscribe(next: { _ in body() }) },
            subscribe: { property.signal.subscribe(next: { _ in }) },
            send: { property.value = 1 })
    }
}
