import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class SubjectTests: ResourceCheckedTestCase {
    func testSubscriberReceivesOnlyValuesSentAfterSubscribing() {
        let subject = Subject<Int, Never>()
        subject.send(1)
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        subject.send(2)
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(2), .completed])
    }

    func testEverySubscriberReceivesEachValueInOrder() {
        let subject = Subject<Int, Never>()
        let logs = (0..<3).map { _ in EventLog<Int, Never>() }
        for log in logs { subject.record(into: log) }
        subject.send(1)
        subject.send(2)
        for log in logs { XCTAssertEqual(log.values, [1, 2]) }
    }

    func testSendsAfterTerminalEventAreIgnored() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.record(into: log)
        subject.sendError(TestError(3))
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.error(TestError(3))])
    }

    func testLateSubscriberReceivesTerminalEventAtOnce() {
        let subject = Subject<Int, Never>()
        subject.sendCompleted()
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testDisposedSubscriberReceivesNothingMore() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let subscription = subject.record(into: log)
        subject.send(1)
        subscription.dispose()
        subject.send(2)
        XCTAssertEqual(log.values, [1])
        XCTAssertTrue(subscription.isDisposed)
    }

    /// Subscriptions disposed before the subject delivered anything leave its join queue (the newest off the
    /// end, an older one from the middle) and are marked there: they receive nothing, a second dispose is
    /// harmless, and the others receive every value in join order.
    func testSubscribersDisposedBeforeAnySendReceiveNothingAndTheOthersEverything() {
        let subject = Subject<Int, Never>()
        let order = Locked<[String]>([])
        var subscriptions: [any Disposable] = []
        for name in ["a", "b", "c", "d"] {
            let named = subject.map { "\(name)\($0)" }
            subscriptions.append(named.subscribe(next: { text in order.mutate { $0.append(text) } }))
        }
        subscriptions[3].dispose()
        subscriptions[1].dispose()
        subscriptions[1].dispose()
        XCTAssertTrue(subscriptions[1].isDisposed)
        subject.send(1)
        let late = subject.subscribe(next: { value in order.mutate { $0.append("e\(value)") } })
        subscriptions[2].dispose()
        subject.send(2)
        late.dispose()
        subject.send(3)
        XCTAssertEqual(order.value, ["a1", "c1", "a2", "e2", "a3"])
        subscriptions[0].dispose()
    }

    /// A subscription disposed while another thread sends, and so while the owner may be taking the join
    /// queue in: after `dispose()` returns it receives nothing, whether it was still waiting in the queue or
    /// already taken in.
    func testSubscriptionsDisposedWhileAnotherThreadSendsReceiveNothingAfterDisposeReturns() {
        let subject = Subject<Int, Never>()
        let flood = Flood(total: 2_000_000) { subject.send($0) }
        // The disposals below are meant to race with the flood: wait until its thread has started sending (on
        // a loaded machine, or behind earlier tests' work on the global queue, it started after the loop had
        // ended, and the check below failed once in a full run).
        let started = Date()
        while flood.sent == 0 && Date().timeIntervalSince(started) < 30 { usleep(1_000) }
        for _ in 0..<2_000 {
            let disposed = Flag()
            let lateCalls = Counter()
            let subscription = subject.subscribe(next: { _ in if disposed.isRaised { lateCalls.increment() } })
            subscription.dispose()
            disposed.raise()
            XCTAssertEqual(lateCalls.value, 0)
        }
        XCTAssertGreaterThan(flood.sent, 0)
        XCTAssertTrue(flood.waitUntilFinished(within: 120), "the flood's end")
    }

    func testDisposeFromInsideOwnCallbackStopsLaterEventsOfSameSend() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let box = DisposableBox()
        box.disposable = subject.subscribe(next: { value in
            log.append(.next(value))
            box.disposable?.dispose()
        })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(log.values, [1])
    }

    func testSubscriberDisposedByEarlierSubscriberDuringSendIsSkipped() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let box = DisposableBox()
        subject.subscribe(next: { _ in box.disposable?.dispose() })
        box.disposable = subject.record(into: log)
        subject.send(1)
        XCTAssertEqual(log.values, [])
    }

    func testReentrantSendIsDeliveredAfterCurrentEventToEverySubscriberInOrder() {
        expectLiveSubscriptions("the observer captures its own subject")
        let subject = Subject<Int, Never>()
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        subject.subscribe(next: { value in
            first.append(.next(value))
            if value < 3 { subject.send(value + 1) }
        })
        subject.record(into: second)
        subject.send(1)
        XCTAssertEqual(first.values, [1, 2, 3])
        // The second subscriber got 1 before 2: the reentrant send did not overtake the current event.
        XCTAssertEqual(second.values, [1, 2, 3])
    }

    func testSubscriberAddedDuringSendDoesNotReceiveThatValue() {
        expectLiveSubscriptions("the observer captures its own subject")
        let subject = Subject<Int, Never>()
        let late = EventLog<Int, Never>()
        let once = Counter()
        subject.subscribe(next: { _ in
            if once.value == 0 {
                once.increment()
                subject.record(into: late)
            }
        })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(late.values, [2])
    }

    func testEightThreadsSendingAreSerializedAndNothingIsLost() {
        let subject = Subject<Int, Never>()
        let detectors = (0..<4).map { _ in OverlapDetector() }
        let counters = (0..<4).map { _ in Counter() }
        for index in 0..<4 {
            subject.subscribe(next: { _ in
                detectors[index].enter()
                counters[index].increment()
                detectors[index].leave()
            })
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for value in 0..<20_000 { subject.send(value) }
        }
        for index in 0..<4 {
            XCTAssertEqual(counters[index].value, 160_000)
            XCTAssertEqual(detectors[index].overlaps, 0)
        }
    }

    func testPerThreadOrderIsKeptUnderContention() {
        let subject = Subject<(thread: Int, value: Int), Never>()
        let lock = NSLock()
        var last = [Int](repeating: -1, count: 4)
        var outOfOrder = 0
        subject.subscribe(next: { item in
            lock.withLock {
                if item.value <= last[item.thread] { outOfOrder += 1 }
                last[item.thread] = item.value
            }
        })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<10_000 { subject.send((thread, value)) }
        }
        XCTAssertEqual(outOfOrder, 0)
        XCTAssertEqual(last, [9_999, 9_999, 9_999, 9_999])
    }

    func testNothingIsDeliveredAfterDisposeReturnsWhileAnotherThreadSends() {
        for _ in 0..<50 {
            let subject = Subject<Int, Never>()
            let afterDispose = Counter()
            let disposedFlag = Flag()
            let delivering = DispatchSemaphore(value: 0)
            let delivered = Counter()
            let subscription = subject.subscribe(next: { _ in
                if disposedFlag.isRaised { afterDispose.increment() }
                delivered.increment()
                if delivered.value == 1 { delivering.signal() }
            })
            let running = Flag()
            let sentAfterDispose = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                var value = 0
                var afterDisposeSends = 0
                while !running.isRaised {
                    subject.send(value)
                    value += 1
                    if disposedFlag.isRaised {
                        afterDisposeSends += 1
                        if afterDisposeSends == 100 { sentAfterDispose.signal() }
                    }
                }
            }
            // Dispose while the other thread is sending (it has delivered), then let it send 100 more.
            waitOrFail(delivering, "the first delivery")
            subscription.dispose()
            disposedFlag.raise()
            waitOrFail(sentAfterDispose, "100 sends after dispose()")
            running.raise()
            group.wait()
            XCTAssertEqual(afterDispose.value, 0)
        }
    }

    func testDisposeReturnsWhileAnotherThreadFloodsTheSubject() {
        // A thread that takes the gate over must not be kept delivering another thread's endless sends.
        for _ in 0..<20 {
            let subject = Subject<Int, Never>()
            let received = Counter()
            subject.subscribe(next: { _ in received.increment() })
            let subscription = subject.subscribe(next: { _ in })
            let stop = Flag()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                var value = 0
                while !stop.isRaised {
                    subject.send(value)
                    value += 1
                }
            }
            waitUntil { received.value >= 1_000 }
            subscription.dispose()  // must return although the other thread never stops sending
            stop.raise()
            group.wait()
            XCTAssertTrue(subscription.isDisposed)
        }
    }

    func testDisposeWaitsForCallbackRunningOnAnotherThread() {
        let subject = Subject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = Flag()
        let subscription = subject.subscribe(next: { _ in
            entered.signal()
            release.wait()
            Thread.sleep(forTimeInterval: 0.05)
            finished.raise()
        })
        DispatchQueue.global().async { subject.send(1) }
        entered.wait()
        release.signal()
        subscription.dispose()
        XCTAssertTrue(finished.isRaised, "dispose() returned while the callback was still running")
    }

    func testSubscriptionReleasesClosuresOnDispose() {
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        let subscription: any Disposable
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.map { $0 + tracked.id }.subscribe(next: { _ in })
        }
        XCTAssertNotNil(weakTracked)
        subscription.dispose()
        XCTAssertNil(weakTracked)
    }

    func testSubscriptionReleasesClosuresOnCompletion() {
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        subject.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    func testReleasedSubjectEndsAndFreesItsSubscriptions() {
        weak var weakTracked: Tracked?
        weak var weakSubject: Subject<Int, Never>?
        var subscription: (any Disposable)?
        do {
            let subject = Subject<Int, Never>()
            weakSubject = subject
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakTracked)
        XCTAssertEqual(subscription?.isDisposed, true)
        subscription = nil
    }

    func testSubscribingWithObserverForwardsIntoSubject() {
        let relay = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        relay.record(into: log)
        Signal(values: [1, 2]).subscribe(relay)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }
}

final class ReplaySubjectTests: ResourceCheckedTestCase {
    func testReplaysEverythingByDefault() {
        let subject = ReplaySubject<Int, Never>()
        subject.send(1)
        subject.send(2)
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        subject.send(3)
        XCTAssertEqual(log.values, [1, 2, 3])
    }

    func testReplaysOnlyTheLastCapacityValues() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        for value in 1...100 { subject.send(value) }
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        XCTAssertEqual(log.values, [99, 100])
    }

    func testNegativeCapacityReplaysNothingButTheTerminalEvent() {
        let subject = ReplaySubject<Int, Never>(capacity: -3)
        subject.send(1)
        subject.sendCompleted()
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testLateSubscriberGetsValuesThenTerminalEvent() {
        let subject = ReplaySubject<Int, TestError>(capacity: 3)
        subject.send(1)
        subject.sendError(TestError(5))
        let log = EventLog<Int, TestError>()
        subject.record(into: log)
        XCTAssertEqual(log.events, [.next(1), .error(TestError(5))])
    }

    func testValueSentDuringReplayIsDeliveredOnceAfterReplay() {
        expectLiveSubscriptions("the observer captures its own subject")
        let subject = ReplaySubject<Int, Never>()
        subject.send(1)
        subject.send(2)
        let log = EventLog<Int, Never>()
        subject.subscribe(next: { value in
            log.append(.next(value))
            if value == 1 { subject.send(3) }
        })
        XCTAssertEqual(log.values, [1, 2, 3])
    }

    func testConcurrentSubscribersEachSeeEveryValueExactlyOnce() {
        let subject = ReplaySubject<Int, Never>()
        let logs = (0..<8).map { _ in EventLog<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: 9) { index in
            if index == 8 {
                for value in 0..<2_000 { subject.send(value) }
                subject.sendCompleted()
            } else {
                subject.record(into: logs[index])
            }
        }
        for log in logs {
            XCTAssertEqual(log.values, Array(0..<2_000))
            XCTAssertEqual(log.events.last, .completed)
        }
    }
}

final class BehaviorSubjectTests: ResourceCheckedTestCase {
    func testSendsCurrentValueFirst() {
        let subject = BehaviorSubject<String, Never>(value: "a")
        let log = EventLog<String, Never>()
        subject.record(into: log)
        subject.send("b")
        XCTAssertEqual(log.values, ["a", "b"])
    }

    func testValueFollowsSends() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        XCTAssertEqual(subject.value, 0)
        subject.send(5)
        XCTAssertEqual(subject.value, 5)
    }

    func testLateSubscriberAfterCompletionGetsLastValueThenCompletion() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        subject.send(7)
        subject.sendCompleted()
        let log = EventLog<Int, Never>()
        subject.record(into: log)
        XCTAssertEqual(log.events, [.next(7), .completed])
    }
}

/// `map` right below a plain subject joins the subject with one entry of its own (`SubjectMappingEntry`, see
/// `SignalAnnex`) instead of a sink closure and an entry holding it: the same behaviour as any other stage.
final class SubjectMappingEntryTests: ResourceCheckedTestCase {
    func testOnlyAPlainSubjectsSignalNamesItsSubject() {
        let subject = Subject<Int, Never>()
        XCTAssertNotNil(subject.signal.plainSubjectSource)
        XCTAssertNil(subject.signal.debugInfo)
        XCTAssertNil(subject.map { $0 }.plainSubjectSource)
        XCTAssertNil(ReplaySubject<Int, Never>(capacity: 2).signal.plainSubjectSource)
        XCTAssertNil(BehaviorSubject<Int, Never>(value: 0).signal.plainSubjectSource)
        XCTAssertNil(Signal<Int, Never>(values: [1]).plainSubjectSource)
    }

    func testAMapOfASubjectTransformsEveryValueInOrderAndStopsWhenDisposed() {
        let subject = Subject<Int, Never>()
        let received = Locked<[String]>([])
        subject.send(0)
        let subscription = subject.map { "v\($0)" }.subscribe(next: { value in received.append(value) })
        subject.send(1)
        subject.send(2)
        subscription.dispose()
        subject.send(3)
        XCTAssertEqual(received.values, ["v1", "v2"])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAMapOfASubjectEndsWithTheSubjectsTerminalEvent() {
        let subject = Subject<Int, TestError>()
        let received = Locked<[Int]>([])
        let subscription = subject.map { $0 * 10 }.subscribe(next: { value in received.append(value) })
        subject.send(1)
        XCTAssertFalse(subscription.isDisposed)
        subject.sendError(TestError(1))
        subject.send(2)
        XCTAssertEqual(received.values, [10])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAMapOfASubjectEndsWhenTheSubjectGoesAway() {
        var subject: Subject<Int, Never>? = Subject<Int, Never>()
        let subscription = subject!.map { $0 }.subscribe(next: { _ in })
        XCTAssertFalse(subscription.isDisposed)
        subject = nil
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAMapOfASubjectThatEndedReceivesNothingAndEnds() {
        let subject = Subject<Int, Never>()
        subject.sendCompleted()
        let received = Locked<[Int]>([])
        let subscription = subject.map { $0 }.subscribe(next: { value in received.append(value) })
        subject.send(1)
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertEqual(received.values, [])
    }

    func testMappedAndPlainSubscribersOfOneSubjectEachReceiveEveryValueAndLeaveInAnyOrder() {
        let subject = Subject<Int, Never>()
        let log = Locked<[String]>([])
        let first = subject.map { $0 * 2 }.subscribe(next: { value in log.append("a\(value)") })
        let second = subject.subscribe(next: { value in log.append("b\(value)") })
        let third = subject.map { -$0 }.subscribe(next: { value in log.append("c\(value)") })
        let events = EventLog<String, Never>()
        let fourth = subject.map { "d\($0)" }.subscribeEvents { events.append($0) }
        subject.send(1)
        first.dispose()
        subject.send(2)
        third.dispose()
        subject.send(3)
        second.dispose()
        subject.sendCompleted()
        XCTAssertEqual(log.values, ["a2", "b1", "c-1", "b2", "c-2", "b3"])
        XCTAssertEqual(events.events, [.next("d1"), .next("d2"), .next("d3"), .completed])
        XCTAssertTrue(fourth.isDisposed)
    }

    func testAMappedSubscriberDisposingItselfInItsCallbackReceivesNothingMore() {
        let subject = Subject<Int, Never>()
        let received = Locked<[Int]>([])
        let box = DisposableBox()
        box.disposable = subject.map { $0 + 100 }.subscribe(next: { value in
            received.append(value)
            box.disposable?.dispose()
        })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received.values, [101])
    }

    func testAMapOfASubjectSubscribedWithAnObserverKeepsTheEventPath() {
        let subject = Subject<Int, Never>()
        let relay = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        relay.record(into: events)
        subject.map { $0 * 3 }.subscribe(relay)
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(events.events, [.next(3), .completed])
    }
}

final class DisposableBox: @unchecked Sendable {
    var disposable: (any Disposable)?
}
