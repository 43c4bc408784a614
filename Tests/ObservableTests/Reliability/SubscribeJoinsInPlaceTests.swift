import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Subscribing to a subject that other threads are sending into never delivers their values to other
/// subscribers on the subscribing thread: a subscribe made while holding a lock that another subscriber's
/// callback takes returns (issue 30, bug 6: a subscribe that found the flooded subject idle became its
/// deliverer, and ran the other subscriber's callback — which waited for the lock the caller held).
final class SubscribeJoinsInPlaceTests: ResourceCheckedTestCase {
    private func assertSubscribingUnderALockReturns(
        _ name: String,
        file: StaticString = #filePath, line: UInt = #line,
        send: @escaping @Sendable (Int) -> Void,
        subscribe: @escaping @Sendable (@escaping @Sendable () -> Void) -> any Disposable
    ) {
        let userLock = NSLock()
        let delivered = Atomic<Int>(0)
        let flowing = DispatchSemaphore(value: 0)
        let busy = subscribe {
            userLock.lock()
            userLock.unlock()
            if delivered.wrappingAdd(1, ordering: .relaxed).newValue == 1_000 { flowing.signal() }
        }
        let stop = Atomic<Bool>(false)
        let senders = (0..<2).map { _ in
            startThread {
                var value = 0
                while !stop.load(ordering: .relaxed) {
                    send(value)
                    value &+= 1
                }
            }
        }
        guard waitOrFail(flowing, within: 120, "\(name): the senders' values", file: file, line: line) else {
            stop.store(true, ordering: .relaxed)
            return
        }
        let subscriptions = StressScale.scaled(20_000)
        let subscriber = startThread {
            for _ in 0..<subscriptions {
                userLock.lock()
                let subscription = subscribe {}
                userLock.unlock()
                subscription.dispose()
            }
        }
        let returned = waitOrFail(
            subscriber, within: 120, "\(name): \(subscriptions) subscriptions under a lock", file: file, line: line)
        stop.store(true, ordering: .relaxed)
        guard returned else { return expectLiveSubscriptions("deadlocked") }
        for sender in senders { waitOrFail(sender, within: 120, "\(name): the senders", file: file, line: line) }
        busy.dispose()
    }

    func testSubscribingToAFloodedSubjectWhileHoldingALockAnotherSubscriberTakesReturns() {
        let subject = Subject<Int, Never>()
        assertSubscribingUnderALockReturns(
            "Subject", send: { subject.send($0) },
            subscribe: { callback in subject.signal.subscribe(next: { _ in callback() }) })
    }

    func testSubscribingToAFloodedMutablePropertyWhileHoldingALockAnotherSubscriberTakesReturns() {
        let property = MutableProperty(0)
        assertSubscribingUnderALockReturns(
            "MutableProperty", send: { property.value = $0 },
            subscribe: { callback in property.signal.subscribe(next: { _ in callback() }) })
    }

    func testSubscribingToAFloodedBehaviorSubjectWhileHoldingALockAnotherSubscriberTakesReturns() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        assertSubscribingUnderALockReturns(
            "BehaviorSubject", send: { subject.send($0) },
            subscribe: { callback in subject.signal.subscribe(next: { _ in callback() }) })
    }

    func testSubscribingToAFloodedReplaySubjectWhileHoldingALockAnotherSubscriberTakesReturns() {
        let subject = ReplaySubject<Int, Never>(capacity: 8)
        assertSubscribingUnderALockReturns(
            "ReplaySubject", send: { subject.send($0) },
            subscribe: { callback in subject.signal.subscribe(next: { _ in callback() }) })
    }

    func testASubscriberJoiningAFloodedMutablePropertyGetsTheCurrentValueThenEverySetInOrder() {
        // Two threads set increasing values; each joiner must receive its initial value, then each setter's
        // values in increasing order (nothing set before the initial one, nothing out of order), and once
        // the setters stop, the property's final value last.
        let property = MutableProperty(0)
        let busy = property.signal.subscribe(next: { _ in })
        let stop = Atomic<Bool>(false)
        let setters = (1...2).map { setter in
            startThread {
                var step = 0
                while !stop.load(ordering: .relaxed) {
                    step += 1
                    property.value = step * 2 + setter  // odd for setter 1, even for setter 2
                }
            }
        }
        var subscriptions: [(ReceivedValues, any Disposable)] = []
        for _ in 0..<StressScale.scaled(200) {
            let received = ReceivedValues()
            subscriptions.append((received, property.signal.subscribe(next: { received.append($0) })))
        }
        stop.store(true, ordering: .relaxed)
        for setter in setters { waitOrFail(setter, within: 120, "the setters") }
        // A last set, from this thread, after every setter returned: every subscriber receives it last.
        let final = -1
        property.value = final
        for (index, (received, subscription)) in subscriptions.enumerated() {
            subscription.dispose()
            let values = received.values
            XCTAssertEqual(values.last, final, "subscriber \(index) ends with the final value")
            for parity in 0...1 {
                let ofSetter = values.dropFirst().filter { $0 >= 0 && $0 % 2 == parity }
                XCTAssertEqual(
                    Array(ofSetter), ofSetter.sorted(), "subscriber \(index): one setter's values in order")
                if let initial = values.first, initial > 0, initial % 2 == parity, let next = ofSetter.first {
                    XCTAssertGreaterThan(next, initial, "subscriber \(index): nothing set before its initial value")
                }
            }
        }
        busy.dispose()
    }

    func testASubscriberJoiningAFloodedSubjectReceivesOnlyValuesSentAfterItsSubscribeStarted() {
        // Joining in place keeps the order: a value sent (by any thread) after `subscribe` returned reaches
        // the new subscriber; a value whose send returned before `subscribe` started does not.
        let subject = Subject<Int, Never>()
        let busy = subject.signal.subscribe(next: { _ in })
        let stop = Atomic<Bool>(false)
        let sender = startThread {
            while !stop.load(ordering: .relaxed) { subject.send(-1) }
        }
        for round in 0..<StressScale.scaled(500) {
            subject.send(round)
            let received = ReceivedValues()
            let last = DispatchSemaphore(value: 0)
            let subscription = subject.signal.subscribe(next: { value in
                received.append(value)
                if value == round + 2_000_000 { last.signal() }
            })
            subject.send(round + 1_000_000)
            subject.send(round + 2_000_000)
            guard waitOrFail(last, within: 60, "round \(round)'s values") else { break }
            subscription.dispose()
            let values = received.values.filter { $0 >= 0 }
            XCTAssertEqual(values, [round + 1_000_000, round + 2_000_000], "round \(round)")
            if values != [round + 1_000_000, round + 2_000_000] { break }
        }
        stop.store(true, ordering: .relaxed)
        waitOrFail(sender, within: 120, "the sender")
        busy.dispose()
    }

    func testASubscriberJoiningFromInsideACallbackReceivesOnlyTheValuesSentAfterItsSubscribe() {
        // The callback's sends are queued behind the value being delivered: the new subscriber gets the one
        // sent after its subscribe returned, not the one sent before it started.
        let subject = Subject<Int, Never>()
        var late: [Int] = []
        var lateSubscription: (any Disposable)?
        let first = subject.signal.subscribe(next: { value in
            guard value == 1 else { return }
            subject.send(2)
            lateSubscription = subject.signal.subscribe(next: { late.append($0) })
            subject.send(3)
        })
        subject.send(1)
        subject.send(4)
        XCTAssertEqual(late, [3, 4])
        lateSubscription?.dispose()
        first.dispose()
    }

    func testASubscriptionDisposedBeforeTheDeliveringThreadTookItInIsNeverCalledAndIsReleased() {
        // Joined while another subscriber's callback runs on another thread (so nobody has taken it in
        // yet), disposed before anything was sent after it: never called; its closure is released at once.
        let subject = Subject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let busy = subject.signal.subscribe(next: { value in
            guard value == 1 else { return }
            entered.signal()
            proceed.wait()
        })
        let sender = startThread { subject.send(1) }
        guard waitOrFail(entered, within: 60, "the first delivery") else {
            proceed.signal()
            return
        }
        final class Witness: Sendable {}
        weak var released: Witness?
        let calls = Atomic<Int>(0)
        do {
            let witness = Witness()
            released = witness
            let subscription = subject.signal.subscribe(next: { _ in
                withExtendedLifetime(witness) { _ = calls.wrappingAdd(1, ordering: .relaxed) }
            })
            subscription.dispose()
        }
        XCTAssertNil(released, "the disposed subscription's closure was released")
        proceed.signal()
        waitOrFail(sender, within: 60, "the sender")
        subject.send(2)
        XCTAssertEqual(calls.load(ordering: .relaxed), 0)
        busy.dispose()
    }
}

private final class ReceivedValues: @unchecked Sendable {
    // Safety: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
