import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Stress: the asymmetric store-load fence between a gate's owner entering a callback and a disposer on
/// another thread (see `SerialGate`'s notes, "Why a disposer can't miss a callback").
///
/// The owner's half is only a compiler barrier; the disposer's half is a process-wide barrier. Without the
/// disposer's half, x86's store buffer lets the owner read "not disposed" while the disposer reads "not in
/// that callback": `dispose()` returns and the callback runs afterwards. These tests make that window as
/// wide as a tight send loop allows, many thousand times, and fail on the first callback that runs after
/// `dispose()` returned.
final class DisposalFenceStressTests: ResourceCheckedTestCase {
    /// A subscriber that records calls made after its disposal returned.
    final class Target: @unchecked Sendable {
        // `disposeReturned` and `lateCalls` are atomics; `firstValue` is signalled once.
        let disposeReturned = Atomic<Bool>(false)
        let lateCalls = Atomic<Int>(0)
        let seenFirst = Atomic<Bool>(false)
        let firstValue = DispatchSemaphore(value: 0)

        func receive() {
            if disposeReturned.load(ordering: .relaxed) { lateCalls.add(1, ordering: .relaxed) }
            if !seenFirst.exchange(true, ordering: .relaxed) { firstValue.signal() }
        }
    }

    /// Subscribes a target with `subscribe`, waits until it is being delivered to, disposes it from this
    /// thread while `sender` keeps delivering on another thread, and counts calls after `dispose()`
    /// returned. Every target is checked once the sender has stopped, so a late call has had every chance
    /// to show up.
    ///
    /// This thread never sends itself: it would become the owner of the sender's flood and deliver up to
    /// `batchesBeforeHandOff` batches of it (by design), which made a round take up to ~0.2 s under Thread
    /// Sanitizer (793 s for the test in one CI run, 6 s in another).
    func assertNoCallAfterDispose(
        rounds: Int, subscribe: (Target) -> any Disposable, sender: @escaping @Sendable () -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let stop = Flag()
        let senderDone = startThread {
            while !stop.isRaised { sender() }
        }
        var targets: [Target] = []
        targets.reserveCapacity(rounds)
        for _ in 0..<rounds {
            let target = Target()
            let subscription = subscribe(target)
            guard waitOrFail(target.firstValue, "the target's first value", file: file, line: line) else { break }
            subscription.dispose()
            target.disposeReturned.store(true, ordering: .relaxed)
            targets.append(target)
        }
        stop.raise()
        waitOrFail(senderDone, "the sender's return", file: file, line: line)
        let late = targets.reduce(0) { $0 + $1.lateCalls.load(ordering: .relaxed) }
        XCTAssertEqual(targets.count, rounds, file: file, line: line)
        XCTAssertEqual(late, 0, "callbacks ran after dispose() returned", file: file, line: line)
    }

    func testASubjectSubscriberDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        let subject = Subject<Int, Never>()
        assertNoCallAfterDispose(
            rounds: StressScale.scaled(20_000),
            subscribe: { target in subject.subscribe(next: { _ in target.receive() }) },
            sender: { subject.send(1) })
    }

    /// `map` right below a plain subject joins it with one entry holding the transform and the subscriber's
    /// closure (`SubjectMappingEntry`): the same fence.
    func testAMapOfASubjectDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        let subject = Subject<Int, Never>()
        XCTAssertNotNil(subject.signal.plainSubjectSource)
        assertNoCallAfterDispose(
            rounds: StressScale.scaled(20_000),
            subscribe: { target in subject.map { $0 &+ 1 }.subscribe(next: { _ in target.receive() }) },
            sender: { subject.send(1) })
    }

    func testAMutablePropertySubscriberDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        let property = MutableProperty(0)
        assertNoCallAfterDispose(
            rounds: StressScale.scaled(20_000),
            subscribe: { target in property.signal.subscribe(next: { _ in target.receive() }) },
            sender: { property.value = 1 })
    }
    /// A recipe's subscriber, sent to through the current round's observer with `send` (whose gate the
    /// sender finds idle: the value is delivered in place, the path that never queues an operation).
    func assertNoCallToARecipesSubscriberAfterDispose(
        send: @escaping @Sendable (Observer<Int, Never>) -> Void, file: StaticString = #filePath, line: UInt = #line
    ) {
        let current = Locked<Observer<Int, Never>?>(nil)
        assertNoCallAfterDispose(
            rounds: StressScale.scaled(20_000),
            subscribe: { target in
                Signal<Int, Never> { observer in
                    current.value = observer
                    return nil
                }.subscribe(next: { _ in target.receive() })
            },
            sender: { if let observer = current.value { send(observer) } }, file: file, line: line)
    }

    func testARecipesSubscriberDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        assertNoCallToARecipesSubscriberAfterDispose(send: { $0.send(1) })
    }

    func testARecipesEventSubscriberDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        assertNoCallToARecipesSubscriberAfterDispose(send: { $0.send(event: .next(1)) })
    }

    /// An `@Observed` model whose observers the owner thread subscribes on request.
    final class FenceModel: KeyPathObservable, @unchecked Sendable {
        @Observed var value = 0
    }

    /// `@Observed` sets and subscriptions belong to the owner's thread, so the owner subscribes each target
    /// (on request) between its sets, and this thread disposes it while the owner keeps setting. With
    /// `companion`, an observer that stays subscribed is delivered to first, so every target is called
    /// through the per-observer hand-shake (`enter`) rather than the first observer's.
    func assertNoObservedCallAfterDispose(
        rounds: Int, companion: Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        let model = FenceModel()
        let request = Locked<Target?>(nil)
        let reply = Locked<(any Disposable)?>(nil)
        let replied = DispatchSemaphore(value: 0)
        // Subscribed before the owner thread starts, disposed after it returned: the owner's isolation.
        let companionSubscription = companion ? model.observe(\.value).subscribe(next: { _ in }) : nil
        assertNoCallAfterDispose(
            rounds: rounds,
            subscribe: { target in
                request.value = target
                guard waitOrFail(replied, "the owner's subscription", file: file, line: line),
                    let subscription = reply.exchange(nil)
                else { return AnyDisposable {} }
                return subscription
            },
            sender: {
                if let target = request.exchange(nil) {
                    reply.value = model.observe(\.value).subscribe(next: { _ in target.receive() })
                    replied.signal()
                }
                model.value &+= 1
            }, file: file, line: line)
        companionSubscription?.dispose()
    }

    func testAnObservedPropertysOnlyObserverDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        assertNoObservedCallAfterDispose(rounds: StressScale.scaled(20_000), companion: false)
    }

    func testAnObservedPropertysSecondObserverDisposedFromAnotherThreadIsNeverCalledAfterDisposeReturns() {
        assertNoObservedCallAfterDispose(rounds: StressScale.scaled(20_000), companion: true)
    }
}
