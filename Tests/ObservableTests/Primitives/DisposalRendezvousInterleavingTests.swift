import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// The disposal rendezvous (guarantee 2), driven through scripted and explored interleavings of a `Subject`'s
/// senders and disposers, and of a `Mailbox`: `dispose()` waits only for its own subscription's callback in
/// flight on another thread, returns at once from inside that callback, and nothing reaches a subscription
/// after its `dispose()` returned.
final class DisposalRendezvousInterleavingTests: ResourceCheckedTestCase {
    /// Subscribers' callbacks that record what they received and stop at "<name> got <value>", and the
    /// violations seen: two callbacks at once, a value after `dispose()` returned, a `dispose()` returning
    /// while its callback ran on another thread.
    final class Callbacks: @unchecked Sendable {
        // Safety: every field is guarded by `lock`.
        private let lock = NSLock()
        private var _received: [String: [Int]] = [:]
        /// The actor running each subscriber's callback.
        private var inside: [String: String] = [:]
        private var disposeReturned: Set<String> = []
        private var _violations: [String] = []
        private var _log: [String] = []

        var violations: [String] { lock.withLock { _violations } }
        var log: [String] { lock.withLock { _log } }
        func received(_ name: String) -> [Int] { lock.withLock { _received[name] ?? [] } }
        func isInside(_ name: String) -> Bool { lock.withLock { inside[name] != nil } }

        func callback(_ name: String, stopping: Bool = true) -> @Sendable (Int) -> Void {
            { value in
                let actor = Interleaving.currentActorName ?? "test thread"
                self.lock.withLock {
                    if !self.inside.isEmpty {
                        self._violations.append("\(name) called with \(value) while \(self.inside.keys.sorted()) ran")
                    }
                    if self.disposeReturned.contains(name) {
                        self._violations.append("\(name) called with \(value) after its dispose() returned")
                    }
                    self.inside[name] = actor
                    self._received[name, default: []].append(value)
                    self._log.append("\(name) got \(value)")
                }
                if stopping { Interleaving.point("\(name) got \(value)") }
                self.lock.withLock {
                    self.inside[name] = nil
                    self._log.append("\(name) returned")
                }
            }
        }

        /// Disposes `subscription` (of subscriber `name`) and records that `dispose()` returned.
        func dispose(_ subscription: any Disposable, of name: String) {
            subscription.dispose()
            let actor = Interleaving.currentActorName ?? "test thread"
            lock.withLock {
                if let runner = inside[name], runner != actor {
                    _violations.append("dispose() of \(name) returned while \(runner) was in its callback")
                }
                disposeReturned.insert(name)
                _log.append("dispose \(name) returned")
            }
        }
    }

    func testDisposeWaitsForItsOwnSubscribersCallbackInFlightAndForNothingElse() {
        let subject = Subject<Int, Never>()
        let callbacks = Callbacks()
        let first = subject.subscribe(next: callbacks.callback("S1"))
        let second = subject.subscribe(next: callbacks.callback("S2"))
        let run = Interleaving()
        let sender = run.spawn("sender") {
            subject.send(1)
            subject.send(2)
        }
        let disposer = run.spawn("disposer") { callbacks.dispose(first, of: "S1") }
        XCTAssertEqual(run.step(sender), .ready("S1 got 1"))
        XCTAssertTrue(run.step(disposer).isParked, "S1's callback is in flight on the sender: dispose() waits")
        XCTAssertEqual(run.step(sender), .ready("S2 got 1"), "S1's callback returned; the sender calls S2")
        XCTAssertEqual(run.state(of: disposer), .woken, "the sender woke the disposer as it left S1")
        XCTAssertEqual(run.step(disposer), .finished, "dispose() returns while S2's callback runs: not its own")
        XCTAssertTrue(callbacks.isInside("S2"))
        run.finish()
        XCTAssertEqual(callbacks.received("S1"), [1])
        XCTAssertEqual(callbacks.received("S2"), [1, 2])
        XCTAssertEqual(callbacks.violations, [])
        second.dispose()
    }

    func testDisposeReturnsAtOnceWhileAnotherSubscribersCallbackIsInFlight() {
        let subject = Subject<Int, Never>()
        let callbacks = Callbacks()
        let first = subject.subscribe(next: callbacks.callback("S1"))
        let second = subject.subscribe(next: callbacks.callback("S2"))
        let run = Interleaving()
        let sender = run.spawn("sender") {
            subject.send(1)
            subject.send(2)
        }
        let disposer = run.spawn("disposer") { callbacks.dispose(first, of: "S1") }
        XCTAssertEqual(run.step(sender), .ready("S1 got 1"))
        XCTAssertEqual(run.step(sender), .ready("S2 got 1"))
        XCTAssertEqual(run.step(disposer), .finished, "dispose() of S1 does not wait for S2's callback")
        XCTAssertEqual(run.parks(of: disposer), 0)
        run.finish()
        XCTAssertEqual(callbacks.received("S1"), [1], "the value sent after dispose() returned does not reach S1")
        XCTAssertEqual(callbacks.received("S2"), [1, 2])
        XCTAssertEqual(callbacks.violations, [])
        second.dispose()
    }

    func testADisposerParkedOnTheLastCallbackIsWokenWhenTheSenderReleasesTheSubject() {
        let subject = Subject<Int, Never>()
        let callbacks = Callbacks()
        let only = subject.subscribe(next: callbacks.callback("S1"))
        let run = Interleaving()
        let sender = run.spawn("sender") { subject.send(1) }
        let disposer = run.spawn("disposer") { callbacks.dispose(only, of: "S1") }
        run.step(sender)
        XCTAssertTrue(run.step(disposer).isParked)
        XCTAssertEqual(run.step(sender), .finished)
        XCTAssertEqual(run.state(of: disposer), .woken)
        XCTAssertEqual(run.step(disposer), .finished)
        XCTAssertEqual(callbacks.log, ["S1 got 1", "S1 returned", "dispose S1 returned"])
        XCTAssertEqual(callbacks.violations, [])
    }

    func testDisposeFromInsideItsOwnCallbackReturnsAtOnceAndLaterValuesDoNotReachIt() {
        let subject = Subject<Int, Never>()
        let callbacks = Callbacks()
        let box = Locked<(any Disposable)?>(nil)
        let record = callbacks.callback("S1")
        box.value = subject.subscribe(next: { value in
            record(value)
            if value == 1, let subscription = box.value { callbacks.dispose(subscription, of: "S1") }
        })
        let second = subject.subscribe(next: callbacks.callback("S2", stopping: false))
        let run = Interleaving()
        let a = run.spawn("A") { subject.send(1) }
        let b = run.spawn("B") { subject.send(2) }
        XCTAssertEqual(run.step(a), .ready("S1 got 1"))
        XCTAssertEqual(run.step(b), .finished, "queued for A")
        XCTAssertEqual(run.step(a), .finished, "A disposed S1 from inside its callback without waiting for itself")
        XCTAssertEqual(run.parks(of: a), 0)
        XCTAssertEqual(callbacks.received("S1"), [1])
        XCTAssertEqual(callbacks.received("S2"), [1, 2])
        XCTAssertEqual(callbacks.violations, [])
        box.value = nil
        second.dispose()
    }

    func testAMailboxDisposeWaitsForTheHandlerRunningOnAnotherThreadAndDropsLaterPosts() {
        let lifetime = CompositeDisposable()
        let handled = Locked<[Int]>([])
        let mailbox = Mailbox<Int>(lifetime: lifetime) { input in
            handled.mutate { $0.append(input) }
            Interleaving.point("handling \(input)")
        }
        let returned = Locked<[String]>([])
        let run = Interleaving()
        let poster = run.spawn("poster") {
            mailbox.post(1)
            mailbox.post(3)
        }
        let other = run.spawn("other") { mailbox.post(2) }
        let disposer = run.spawn("disposer") {
            lifetime.dispose()
            returned.mutate { $0.append("dispose returned with \(handled.value)") }
        }
        XCTAssertEqual(run.step(poster), .ready("handling 1"))
        XCTAssertEqual(run.step(other), .finished, "post 2 queued behind 1")
        XCTAssertTrue(run.step(disposer).isParked, "the handler runs on the poster: dispose() waits")
        XCTAssertEqual(run.step(poster), .finished, "post 2 was dropped (disposed) and so was post 3")
        run.finish()
        XCTAssertEqual(handled.value, [1])
        XCTAssertEqual(returned.value, ["dispose returned with [1]"])
    }

    // MARK: Every schedule

    /// Two senders (values 1, 2 and 3) and a disposer of S1, S1 and S2 stopping in every callback: in every
    /// schedule no two callbacks run at once, nothing reaches S1 after its `dispose()` returned, `dispose()`
    /// never returns while S1's callback runs on another thread, S2 gets every value once (1 before 2), S1
    /// gets each value at most once (1 before 2), and the subscriptions end released.
    func testInEverySchedulesOfSendersAndADisposerTheRendezvousHolds() {
        let schedules = exploreInterleavings { run in
            let subject = Subject<Int, Never>()
            let callbacks = Callbacks()
            let first = subject.subscribe(next: callbacks.callback("S1"))
            let second = subject.subscribe(next: callbacks.callback("S2"))
            run.spawn("A") {
                subject.send(1)
                subject.send(2)
            }
            run.spawn("B") { subject.send(3) }
            run.spawn("C") {
                Interleaving.point("before dispose")
                callbacks.dispose(first, of: "S1")
            }
            return {
                var violations = callbacks.violations
                let s2 = callbacks.received("S2")
                if s2.sorted() != [1, 2, 3] || s2.firstIndex(of: 1)! > s2.firstIndex(of: 2)! {
                    violations.append("S2 received \(s2)")
                }
                let s1 = callbacks.received("S1")
                if Set(s1).count != s1.count || (s1.contains(2) && !s1.contains(1))
                    || (s1.firstIndex(of: 2) ?? .max) < (s1.firstIndex(of: 1) ?? .max)
                {
                    violations.append("S1 received \(s1)")
                }
                second.dispose()
                return violations
            }
        }
        print("DisposalRendezvousInterleavingTests (subject): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// A subscriber disposing another subscriber from inside its callback while a third thread disposes
    /// the first: in every schedule nothing deadlocks and nothing is delivered after a `dispose()` returned.
    func testInEveryScheduleSubscribersDisposingEachOtherAndAnotherThreadNeitherDeadlockNorLeak() {
        let schedules = exploreInterleavings { run in
            let subject = Subject<Int, Never>()
            let callbacks = Callbacks()
            let secondBox = Locked<(any Disposable)?>(nil)
            let recordFirst = callbacks.callback("S1")
            let first = subject.subscribe(next: { value in
                recordFirst(value)
                if let second = secondBox.value { callbacks.dispose(second, of: "S2") }
            })
            secondBox.value = subject.subscribe(next: callbacks.callback("S2"))
            run.spawn("A") {
                subject.send(1)
                subject.send(2)
            }
            run.spawn("B") {
                Interleaving.point("before dispose")
                callbacks.dispose(first, of: "S1")
            }
            return {
                var violations = callbacks.violations
                // S1 disposes S2 from inside its callback of 1: S2 gets 2 only if S1 never got 1.
                if callbacks.received("S1").contains(1) && callbacks.received("S2").contains(2) {
                    violations.append("S2 got 2 after S1 disposed it")
                }
                if let second = secondBox.value { second.dispose() }
                return violations
            }
        }
        print("DisposalRendezvousInterleavingTests (disposing each other): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// A mailbox posted to from two threads and disposed from a third, the handler stopping at every input:
    /// in every schedule the handler runs one input at a time, each poster's inputs in order and at most once,
    /// and none after `dispose()` returned.
    func testInEveryScheduleAMailboxHandlesInputsOneAtATimeInOrderAndNoneAfterDispose() {
        let schedules = exploreInterleavings { run in
            let lifetime = CompositeDisposable()
            let callbacks = Callbacks()
            let handle = callbacks.callback("handler")
            let mailbox = Mailbox<Int>(lifetime: lifetime) { handle($0) }
            run.spawn("A") {
                mailbox.post(1)
                mailbox.post(2)
            }
            run.spawn("B") { mailbox.post(3) }
            run.spawn("C") {
                Interleaving.point("before dispose")
                callbacks.dispose(lifetime, of: "handler")
            }
            return {
                var violations = callbacks.violations
                let handled = callbacks.received("handler")
                if Set(handled).count != handled.count
                    || (handled.firstIndex(of: 2) ?? .max) < (handled.firstIndex(of: 1) ?? .max)
                    || (handled.contains(2) && !handled.contains(1))
                {
                    violations.append("handled \(handled)")
                }
                return violations
            }
        }
        print("DisposalRendezvousInterleavingTests (mailbox): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// A signal's observer fed from two threads and its subscription disposed from a third (the rendezvous
    /// of a gate serving one subscription): in every schedule the subscriber is called one value at a time,
    /// each sender's in order and at most once, never after `dispose()` returned, and `dispose()` never
    /// returns while the callback runs on another thread.
    func testInEveryScheduleAnObserverFedFromTwoThreadsAndDisposedFromAThirdKeepsTheRendezvous() {
        let schedules = exploreInterleavings { run in
            let callbacks = Callbacks()
            let box = Locked<Observer<Int, Never>?>(nil)
            let signal = Signal<Int, Never> { observer in
                box.value = observer
                return nil
            }
            let subscription = signal.subscribe(next: callbacks.callback("S"))
            guard let observer = box.value else { return { ["the signal did not start"] } }
            box.value = nil
            run.spawn("A") {
                observer.send(1)
                observer.send(2)
            }
            run.spawn("B") { observer.send(3) }
            run.spawn("C") {
                Interleaving.point("before dispose")
                callbacks.dispose(subscription, of: "S")
            }
            return {
                var violations = callbacks.violations
                let received = callbacks.received("S")
                if Set(received).count != received.count
                    || (received.firstIndex(of: 2) ?? .max) < (received.firstIndex(of: 1) ?? .max)
                    || (received.contains(2) && !received.contains(1))
                {
                    violations.append("received \(received)")
                }
                return violations
            }
        }
        print("DisposalRendezvousInterleavingTests (observer): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }
}
