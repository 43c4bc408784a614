import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// A new subscriber of a source that calls it on subscribing (a property's current value, a subject's
/// replay) catches up on its own thread: the thread delivering to the others never waits for it and never
/// calls it while it catches up, and it receives what was sent meanwhile, in order, before `subscribe`
/// returns (issue 30, bug 6).
final class JoinCatchUpTests: ResourceCheckedTestCase {
    /// A source that replays on subscribing, seen through the operations the tests need.
    struct Source: @unchecked Sendable {
        // Safety: the closures call thread-safe sources (a property, a subject).
        var name: String
        /// What a new subscriber receives first (the current value, the replay) after the values sent so far.
        var replay: ([Int]) -> [Int]
        /// What a subscriber joining now receives first: the source was made with `0`, then sent `1`.
        var initial: [Int] { replay([0, 1]) }
        var send: (Int) -> Void
        var signal: () -> Signal<Int, Never>
        /// Drops the source (its end), if the test holds the last reference.
        var end: () -> Void
    }

    /// Each kind of source, made fresh.
    private func sources() -> [Source] {
        var property: MutableProperty<Int>? = MutableProperty(0)
        property!.value = 1
        let behavior = BehaviorSubject<Int, Never>(value: 0)
        behavior.send(1)
        let replay = ReplaySubject<Int, Never>()
        let replayOne = ReplaySubject<Int, Never>(capacity: 1)
        for value in 0...1 {
            replay.send(value)
            replayOne.send(value)
        }
        return [
            Source(
                name: "MutableProperty", replay: { [$0.last!] }, send: { property!.value = $0 },
                signal: { property!.signal }, end: { property = nil }),
            Source(
                name: "BehaviorSubject", replay: { [$0.last!] }, send: { behavior.send($0) },
                signal: { behavior.signal }, end: { behavior.send(event: .completed) }),
            Source(
                name: "ReplaySubject", replay: { $0 }, send: { replay.send($0) }, signal: { replay.signal },
                end: { replay.send(event: .completed) }),
            Source(
                name: "ReplaySubject(capacity: 1)", replay: { [$0.last!] }, send: { replayOne.send($0) },
                signal: { replayOne.signal }, end: { replayOne.send(event: .completed) }),
        ]
    }

    /// Blocks the joiner in its first callback; while it is blocked another thread sends 2 and 3 (and
    /// returns); then the joiner receives them after its initial events, before its `subscribe` returns.
    func testTheDeliveringThreadHandsValuesToACatchingUpSubscriberInsteadOfCallingIt() {
        for source in sources() {
            let others = Locked<[Int]>([])
            let other = source.signal().subscribe(next: { value in others.mutate { $0.append(value) } })
            let inFirstCallback = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let received = Locked<[Int]>([])
            let callbacksAtOnce = Atomic<Int>(0)
            let overlapped = Atomic<Bool>(false)
            let joined = Atomic<Bool>(false)
            let joiner = startThread {
                var first = true
                let subscription = source.signal().subscribe(next: { value in
                    if callbacksAtOnce.wrappingAdd(1, ordering: .relaxed).newValue > 1 {
                        overlapped.store(true, ordering: .relaxed)
                    }
                    received.mutate { $0.append(value) }
                    if first {
                        first = false
                        inFirstCallback.signal()
                        proceed.wait()
                    }
                    callbacksAtOnce.wrappingSubtract(1, ordering: .relaxed)
                })
                joined.store(true, ordering: .releasing)
                // Everything sent before `subscribe` returned was delivered before it returned.
                XCTAssertEqual(received.value, source.initial + [2, 3], source.name)
                subscription.dispose()
            }
            guard waitOrFail(inFirstCallback, within: 60, "\(source.name): the joiner's first callback") else {
                proceed.signal()
                return
            }
            // The sends return although the joiner is blocked in its callback: nobody waits for it.
            source.send(2)
            source.send(3)
            XCTAssertEqual(others.value, source.initial + [2, 3], source.name)
            XCTAssertFalse(joined.load(ordering: .acquiring), source.name)
            proceed.signal()
            waitOrFail(joiner, within: 60, "\(source.name): the joiner")
            XCTAssertFalse(overlapped.load(ordering: .relaxed), "\(source.name): one callback at a time")
            other.dispose()
        }
    }

    /// A joiner that falls a backlog's worth of events behind a flood while it catches up gives the rest
    /// to the thread delivering the flood, which calls it from then on (at its pace: the gate's bounded
    /// backlog then holds the senders back), and its `subscribe` returns. Nothing is lost or reordered.
    func testACatchingUpSubscriberThatFallsBehindAFloodIsHandedToTheDeliveringThread() {
        let flood = SerialGate<Int>.backlogLimit + 10
        let last = 1_000 + flood
        for source in sources() {
            let ownerInLastValue = DispatchSemaphore(value: 0)
            let releaseOwner = DispatchSemaphore(value: 0)
            // Holds the delivering thread inside the flood's last value: the gate stays owned meanwhile.
            let other = source.signal().subscribe(next: { value in
                guard value == last else { return }
                ownerInLastValue.signal()
                releaseOwner.wait()
            })
            let inFirstCallback = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let joinerThread = Atomic<UInt>(0)
            let received = Locked<[(value: Int, onJoinerThread: Bool)]>([])
            let receivedWhenSubscribeReturned = Locked<Int>(-1)
            let subscription = Locked<(any Disposable)?>(nil)
            let joiner = startThread {
                joinerThread.store(currentThreadID, ordering: .relaxed)
                var first = true
                subscription.value = source.signal().subscribe(next: { value in
                    received.mutate { $0.append((value, currentThreadID == joinerThread.load(ordering: .relaxed))) }
                    if first {
                        first = false
                        inFirstCallback.signal()
                        proceed.wait()
                    }
                })
                receivedWhenSubscribeReturned.value = received.value.count
            }
            guard waitOrFail(inFirstCallback, within: 60, "\(source.name): the joiner's first callback") else {
                proceed.signal()
                return
            }
            let sender = startThread {
                for value in 1_001...last { source.send(value) }
            }
            guard waitOrFail(ownerInLastValue, within: 60, "\(source.name): the flood") else {
                proceed.signal()
                releaseOwner.signal()
                return
            }
            proceed.signal()
            waitOrFail(joiner, within: 60, "\(source.name): the joiner's subscribe")
            XCTAssertEqual(
                receivedWhenSubscribeReturned.value, 1, "\(source.name): subscribe returned after its first event")
            releaseOwner.signal()
            waitOrFail(sender, within: 60, "\(source.name): the sender")
            let events = received.value
            XCTAssertEqual(events.map(\.value), source.initial + Array(1_001...last), source.name)
            XCTAssertEqual(
                events.dropFirst().filter(\.onJoinerThread).count, 0,
                "\(source.name): the rest was delivered by the flood's thread")
            subscription.value?.dispose()
            other.dispose()
        }
    }

    /// After catching up, the subscriber is called by whichever thread delivers, as any other.
    func testACaughtUpSubscriberReceivesLaterValuesFromTheDeliveringThread() {
        for source in sources() {
            let received = Locked<[Int]>([])
            let subscription = source.signal().subscribe(next: { value in received.mutate { $0.append(value) } })
            let sender = startThread {
                source.send(2)
                source.send(3)
            }
            waitOrFail(sender, within: 60, "\(source.name): the sender")
            XCTAssertEqual(received.value, source.initial + [2, 3], source.name)
            subscription.dispose()
        }
    }

    /// A subscribe from inside a callback of the same source receives its initial events before it
    /// returns, and then what is sent after it.
    func testASubscriberJoiningFromInsideACallbackCatchesUpBeforeSubscribeReturns() {
        for source in sources() {
            var inner: [Int] = []
            var innerSubscription: (any Disposable)?
            var seenBySubscribe: [Int] = []
            let outer = source.signal().subscribe(next: { value in
                guard value == 2 else { return }
                innerSubscription = source.signal().subscribe(next: { inner.append($0) })
                seenBySubscribe = inner
            })
            source.send(2)
            source.send(3)
            XCTAssertEqual(seenBySubscribe, source.replay([0, 1, 2]), source.name)
            XCTAssertEqual(inner, source.replay([0, 1, 2]) + [3], source.name)
            innerSubscription?.dispose()
            outer.dispose()
        }
    }

    /// A disposal made on another thread while the subscriber is in a catch-up callback returns after that
    /// callback, and nothing is delivered afterwards. (The subscription is started on a lifetime the test
    /// holds, so that another thread can dispose it while `subscribe` still runs, as an operator may.)
    ///
    /// Scripted (`Interleaving`): the disposer is given its turn while the joiner is stopped inside its
    /// first callback, and runs until it parks waiting for that callback — seen through `ParkingLot`, not
    /// guessed with a sleep (a sleep let a loaded machine start the disposer after the callback returned,
    /// when delivering the next value is right).
    func testDisposingACatchingUpSubscriptionFromAnotherThreadWaitsForItsCallback() {
        for source in sources() {
            let log = Locked<[String]>([])
            let lifetime = CompositeDisposable()
            let run = Interleaving()
            let joiner = run.spawn("joiner") {
                let first = Locked(true)
                source.signal().start(
                    Sink { event in
                        log.mutate { $0.append("\(event)") }
                        let isFirst = first.mutate { isFirst in
                            defer { isFirst = false }
                            return isFirst
                        }
                        if isFirst {
                            Interleaving.point("in the first callback")
                            log.mutate { $0.append("callback returns") }
                        }
                    }, in: lifetime)
            }
            let disposer = run.spawn("disposer") {
                lifetime.dispose()
                log.mutate { $0.append("dispose returned") }
            }
            XCTAssertEqual(run.step(joiner), .ready("in the first callback"), source.name)
            source.send(2)  // handed to the joiner's backlog
            XCTAssertTrue(run.step(disposer).isParked, "\(source.name): the disposer waits for the callback")
            XCTAssertTrue(run.finish(), "\(source.name): \(run.schedule)")
            let entries = log.value
            XCTAssertEqual(
                entries.prefix(2), ["next(\(source.initial[0]))", "callback returns"], "\(source.name): \(entries)")
            XCTAssertEqual(entries.last, "dispose returned", "\(source.name): \(entries)")
            XCTAssertFalse(entries.contains("next(2)"), "\(source.name): nothing after the disposal: \(entries)")
        }
    }

    /// The source ends while a subscriber catches up: the subscriber receives its initial events, then
    /// completion, and its subscription ends.
    func testASourceEndingWhileASubscriberCatchesUpCompletesItAfterItsInitialEvents() {
        for source in sources() {
            let inFirstCallback = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let events = Locked<[Event<Int, Never>]>([])
            let subscription = Locked<(any Disposable)?>(nil)
            let joiner = startThread {
                var first = true
                subscription.value = source.signal().subscribe(
                    next: { value in
                        events.mutate { $0.append(.next(value)) }
                        if first {
                            first = false
                            inFirstCallback.signal()
                            proceed.wait()
                        }
                    },
                    completed: { events.mutate { $0.append(.completed) } })
            }
            guard waitOrFail(inFirstCallback, within: 60, "\(source.name): the joiner's first callback") else {
                proceed.signal()
                return
            }
            source.end()
            proceed.signal()
            waitOrFail(joiner, within: 60, "\(source.name): the joiner")
            XCTAssertEqual(subscription.value?.isDisposed, true, "\(source.name): the subscription ended")
            XCTAssertEqual(events.value, source.initial.map { .next($0) } + [.completed], source.name)
        }
    }

    /// A subject that goes away while a subscriber catches up: the subscriber receives its replay, and its
    /// subscription then ends without an event.
    func testASubjectGoingAwayWhileASubscriberCatchesUpEndsItAfterItsReplay() {
        var subject: ReplaySubject<Int, Never>? = ReplaySubject()
        subject!.send(0)
        let inFirstCallback = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let events = Locked<[Event<Int, Never>]>([])
        let subscription = Locked<(any Disposable)?>(nil)
        let signal = UncheckedBox(subject!.signal)
        let joiner = startThread {
            var first = true
            subscription.value = signal.value.subscribeEvents { event in
                events.mutate { $0.append(event) }
                if first {
                    first = false
                    inFirstCallback.signal()
                    proceed.wait()
                }
            }
        }
        guard waitOrFail(inFirstCallback, within: 60, "the joiner's first callback") else {
            proceed.signal()
            return
        }
        subject!.send(1)
        subject = nil
        proceed.signal()
        waitOrFail(joiner, within: 60, "the joiner")
        XCTAssertEqual(events.value, [.next(0), .next(1)])
        XCTAssertEqual(subscription.value?.isDisposed, true, "the subscription ended")
    }

    /// A subscriber joining after the terminal event was sent (while it is still queued behind a delivery)
    /// receives the replay and the terminal event, and nothing sent after it.
    func testASubscriberJoiningAfterTheTerminalEventReceivesTheReplayAndTheEvent() {
        let subject = ReplaySubject<Int, Never>()
        subject.send(0)
        let inCallback = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let busy = subject.signal.subscribe(next: { value in
            guard value == 1 else { return }
            inCallback.signal()
            proceed.wait()
        })
        let sender = startThread { subject.send(1) }
        guard waitOrFail(inCallback, within: 60, "the delivery of 1") else {
            proceed.signal()
            return
        }
        subject.send(2)
        subject.send(event: .completed)
        subject.send(3)  // after the terminal event: dropped
        var events: [Event<Int, Never>] = []
        let late = subject.signal.subscribeEvents { events.append($0) }
        XCTAssertEqual(events, [.next(0), .next(1), .next(2), .completed])
        XCTAssertTrue(late.isDisposed)
        proceed.signal()
        waitOrFail(sender, within: 60, "the sender")
        busy.dispose()
    }
}
