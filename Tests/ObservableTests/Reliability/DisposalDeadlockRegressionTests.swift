import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Issue 14, scenarios 1–3: `dispose()` waits only for *its own* subscription's callback in flight
/// (DESIGN.md guarantees 2 and 6) — never for another subscriber of the same source, a reentrant pump,
/// or anything that could need a lock the disposing thread holds.
///
/// Each test reproduces the scenario the way the adversarial review found it. A hang becomes a failure
/// through a watchdog (a bounded wait far above what the work needs); nothing asserts a duration.
final class DisposalDeadlockRegressionTests: ResourceCheckedTestCase {
    /// What one round of a two-subject race built: the subjects, the subscriptions and their logs.
    private struct TwoSubjectRound<Failure: Error> {
        let a = Subject<Int, Failure>()
        let b = Subject<Int, Failure>()
        var subscriptions: [any Disposable] = []
        var logs: [EventLog<Int, Failure>] = []

        mutating func record<S: SignalConvertible>(_ source: S) where S.Value == Int, S.Failure == Failure {
            let log = EventLog<Int, Failure>()
            subscriptions.append(source.record(into: log))
            logs.append(log)
        }
    }

    // MARK: 1 — no user code involved: each thread's delivery ends a subscription to the other's subject

    func testTwoSubscriptionsToMergeTakeOneSentFromTwoThreadsAtOnceDoNotDeadlock() {
        let problems = ProblemLog()
        runLockstepRounds(
            threads: 2, rounds: StressScale.scaled(5_000),
            prepare: { _ -> TwoSubjectRound<Never> in
                var round = TwoSubjectRound<Never>()
                let merged = Signal.merge(round.a, round.b).take(1)
                round.record(merged)
                round.record(merged)
                return round
            },
            body: { index, round in
                if index == 0 { round.a.send(0) } else { round.b.send(1) }
            },
            check: { round in
                // Each subscription takes the first of the two values, then completes.
                for log in round.logs
                where log.values.count != 1 || !(log.events.last?.isTerminal ?? false) || log.count != 2 {
                    problems.add("merge(a, b).take(1): \(log.events)")
                }
                for subscription in round.subscriptions { subscription.dispose() }
            })
        XCTAssertEqual(problems.entries, [])
    }

    func testTwoMergesOfTheSameSubjectsEachFailingOnItsOwnThreadAtOnceDoNotDeadlock() {
        let problems = ProblemLog()
        runLockstepRounds(
            threads: 2, rounds: StressScale.scaled(5_000),
            prepare: { _ -> TwoSubjectRound<TestError> in
                var round = TwoSubjectRound<TestError>()
                let (a, b) = (round.a, round.b)
                // `merge(b, a)` subscribes while `merge(a, b)` is between its two inputs, so `a` delivers to
                // the first merge first and `b` to the second merge first: each merge fails on its own
                // thread, then ends its subscription to the subject the other thread is delivering.
                let second = Locked<(subscription: any Disposable, log: EventLog<Int, TestError>)?>(nil)
                let bAfterTheSecondMerge = Signal<Int, TestError>.deferred { () -> Subject<Int, TestError> in
                    let log = EventLog<Int, TestError>()
                    second.value = (Signal.merge(b, a).record(into: log), log)
                    return b
                }
                round.record(Signal.merge(a.signal, bAfterTheSecondMerge))
                if let second = second.value {
                    round.subscriptions.append(second.subscription)
                    round.logs.append(second.log)
                }
                return round
            },
            body: { index, round in
                if index == 0 { round.a.sendError(TestError(0)) } else { round.b.sendError(TestError(1)) }
            },
            check: { round in
                // Each merge fails with the first error it receives, once.
                for log in round.logs where log.count != 1 || !(log.events.last?.isTerminal ?? false) {
                    problems.add("merge: \(log.events)")
                }
                if round.logs.count != 2 { problems.add("\(round.logs.count) merges subscribed") }
                for subscription in round.subscriptions { subscription.dispose() }
            })
        XCTAssertEqual(problems.entries, [])
    }

    // MARK: 2 — disposing an idle subscription while holding a lock another subscriber's delivery needs

    /// Holds `userLock` on a disposing thread while another thread delivers to a subscriber that needs
    /// that lock, and disposes an idle subscription of the same source: `dispose()` must return (it has
    /// no callback of its own in flight) and the idle subscription must receive nothing afterwards.
    /// Returns `false` when a watchdog fired.
    ///
    /// - Parameters:
    ///   - subscribe: subscribes a closure to the source (a property sends its current value first).
    ///   - deliver: sets or sends `1` (on another thread).
    private func assertDisposingAnIdleSubscriptionUnderALockDoesNotWaitForAnotherSubscriber(
        idleFirst: Bool, file: StaticString = #filePath, line: UInt = #line,
        subscribe: (@escaping (Int) -> Void) -> any Disposable,
        deliver: @escaping @Sendable () -> Void
    ) -> Bool {
        let userLock = NSLock()
        let lockHeld = DispatchSemaphore(value: 0)
        let busyInside = DispatchSemaphore(value: 0)
        let idleDisposed = Flag()
        let idleLate = Atomic<Int>(0)
        func subscribeIdle() -> any Disposable {
            subscribe { value in
                if value == 1 && idleDisposed.isRaised { idleLate.add(1, ordering: .relaxed) }
            }
        }
        let idleFirstSubscription = idleFirst ? subscribeIdle() : nil
        let busy = subscribe { value in
            guard value == 1 else { return }
            busyInside.signal()
            // A subscriber that needs the user's lock, as UI or model code does.
            userLock.lock()
            userLock.unlock()
        }
        let idle = UncheckedBox(idleFirstSubscription ?? subscribeIdle())

        let disposed = startThread {
            userLock.lock()
            lockHeld.signal()
            // Dispose only once the other subscriber is inside its callback, waiting for this lock.
            if busyInside.wait(timeout: .now() + 30) == .success {
                idle.value.dispose()
                idleDisposed.raise()
            }
            userLock.unlock()
        }
        guard waitOrFail(lockHeld, "taking the user lock", file: file, line: line) else { return false }
        let delivered = startThread(deliver)
        guard waitOrFail(disposed, "dispose() of the idle subscription while holding the lock", file: file, line: line)
        else { return false }
        XCTAssertTrue(idleDisposed.isRaised, "the other subscriber's delivery started", file: file, line: line)
        guard waitOrFail(delivered, "the delivery to the subscriber that needed the lock", file: file, line: line)
        else { return false }
        XCTAssertEqual(
            idleLate.load(ordering: .relaxed), 0, "a value reached the idle subscription after dispose() returned",
            file: file, line: line)
        busy.dispose()
        return true
    }

    func testDisposingAnIdleSubjectSubscriptionUnderALockReturnsWhileAnotherSubscriberWaitsForThatLock() {
        for idleFirst in [false, true] {
            let subject = Subject<Int, Never>()
            let finished = assertDisposingAnIdleSubscriptionUnderALockDoesNotWaitForAnotherSubscriber(
                idleFirst: idleFirst,
                subscribe: { body in subject.subscribe(next: body) },
                deliver: { subject.send(1) })
            guard finished else { return }  // one watchdog is enough
        }
    }

    func testDisposingAnIdleMutablePropertySubscriptionUnderALockReturnsWhileAnotherSubscriberWaitsForThatLock() {
        for idleFirst in [false, true] {
            let property = MutableProperty(0)
            let finished = assertDisposingAnIdleSubscriptionUnderALockDoesNotWaitForAnotherSubscriber(
                idleFirst: idleFirst,
                subscribe: { body in property.signal.subscribe(next: body) },
                deliver: { property.value = 1 })
            guard finished else { return }
        }
    }

    func testDisposingAnIdleObservationUnderALockReturnsWhileAnotherObserverWaitsForThatLock() {
        for idleFirst in [false, true] {
            let model = UncheckedBox(CounterModel())
            let finished = assertDisposingAnIdleSubscriptionUnderALockDoesNotWaitForAnotherSubscriber(
                idleFirst: idleFirst,
                subscribe: { body in model.value.observe(\.count).subscribe(next: body) },
                // Only the delivering thread sets the property, as @Observed requires.
                deliver: { model.value.count = 1 })
            guard finished else { return }
        }
    }

    // MARK: 3 — a subscriber that keeps sending into its own subject (a reentrant pump)

    /// Starts a pump on another thread: a subscriber of `subject` that sends the next number into it
    /// from inside its callback until `stop` is set — the test sets it once `dispose()` has returned, or
    /// when the watchdog fires — or after a count far beyond what the watchdog allows. Returns the pump's
    /// subscription and a semaphore signalled when the pumping thread's `send` has returned.
    private func startPump(
        _ subject: Subject<Int, Never>, stop: Flag, disposeReturned: Flag, late: ProblemLog
    ) -> (subscription: any Disposable, finished: DispatchSemaphore)? {
        let pumping = DispatchSemaphore(value: 0)
        let subscription = subject.subscribe(next: { value in
            if disposeReturned.isRaised { late.add("the pump received \(value) after dispose() returned") }
            if value == 1_000 { pumping.signal() }
            if !stop.isRaised && value < 1_000_000_000 { subject.send(value + 1) }
        })
        let finished = startThread { subject.send(0) }
        guard waitOrFail(pumping, "the pump's start") else {
            stop.raise()
            return nil
        }
        return (subscription, finished)
    }

    func testDisposingAPumpingSubscriptionFromAnotherThreadReturnsWhileItStillPumps() {
        let subject = Subject<Int, Never>()
        let stop = Flag()
        let disposeReturned = Flag()
        let late = ProblemLog()
        guard let pump = startPump(subject, stop: stop, disposeReturned: disposeReturned, late: late) else { return }
        let subscription = UncheckedBox(pump.subscription)
        let disposed = startThread {
            subscription.value.dispose()
            disposeReturned.raise()
        }
        // The pump only stops when told to: on failure, once the watchdog has fired.
        let returned = waitOrFail(disposed, "dispose() of a pumping subscription")
        stop.raise()
        if !returned { _ = waitOrFail(disposed, "dispose() of the pumping subscription once it stopped") }
        // Once its subscription is disposed, the pump never runs again: the pumping thread returns.
        _ = waitOrFail(pump.finished, "the pumping thread's return")
        XCTAssertEqual(late.entries, [])
    }

    func testDisposingAnotherSubscriberOfAPumpingSubjectFromAnotherThreadReturns() {
        let subject = Subject<Int, Never>()
        let stop = Flag()
        let late = ProblemLog()
        let otherDisposeReturned = Flag()
        let other = subject.subscribe(next: { value in
            if otherDisposeReturned.isRaised { late.add("the other subscriber received \(value) after dispose()") }
        })
        guard let pump = startPump(subject, stop: stop, disposeReturned: Flag(), late: late) else { return }
        let otherBox = UncheckedBox(other)
        let disposed = startThread {
            otherBox.value.dispose()
            otherDisposeReturned.raise()
        }
        let returned = waitOrFail(disposed, "dispose() of another subscriber of a pumping subject")
        stop.raise()
        if !returned { _ = waitOrFail(disposed, "dispose() of the other subscriber once the pump stopped") }
        _ = waitOrFail(pump.finished, "the pump's end once stopped")
        XCTAssertEqual(late.entries, [])
        pump.subscription.dispose()
    }
}
