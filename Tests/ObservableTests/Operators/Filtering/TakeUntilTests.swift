import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// `take(until:)` (RAC's `-takeUntil:`): every test of the operator — its events, its subscriptions and
/// disposal, virtual time, captures, and the races its two sources make on two threads.
final class TakeUntilTests: ResourceCheckedTestCase {
    // MARK: Events and subscriptions

    func testTakeUntilCompletesWhenTriggerSendsAndDisposesBoth() {
        let source = SubscriptionProbe()
        let trigger = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.signal.take(until: trigger.signal).record(into: log)
        source.observer?.send(1)
        source.observer?.send(2)
        trigger.observer?.send(0)
        source.observer?.send(3)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testTakeUntilCompletesWhenTriggerCompletes() {
        let source = Subject<Int, Never>()
        let trigger = Subject<Void, Never>()
        let log = EventLog<Int, Never>()
        source.take(until: trigger).record(into: log)
        source.send(1)
        trigger.sendCompleted()
        source.send(2)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testTakeUntilIgnoresATriggerErrorAsRACDoes() {
        let source = Subject<Int, Never>()
        let trigger = Subject<Void, TestError>()
        let log = EventLog<Int, Never>()
        source.take(until: trigger).record(into: log)
        source.send(1)
        trigger.sendError(TestError())
        source.send(2)
        source.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testTakeUntilTriggerFiringDuringSubscriptionEndsAtOnceWithoutSubscribingSource() {
        let source = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.signal.take(until: Signal<Int, Never>(value: 0)).record(into: log)
        XCTAssertEqual(log.events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)

        let completing = EventLog<Int, TestError>()
        source.signal.take(until: Signal<Int, Never>.empty).record(into: completing)
        XCTAssertEqual(completing.events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeUntilSourceTerminationDisposesTrigger() {
        let source = Subject<Int, TestError>()
        let trigger = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.take(until: trigger.signal).record(into: log)
        source.send(1)
        source.sendError(TestError(2))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(2))])
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testTakeUntilDisposalDisposesSourceAndTrigger() {
        let trigger = SubscriptionProbe()
        assertDisposesSource { $0.take(until: trigger.signal) }
        XCTAssertEqual(trigger.subscriptions.value, 1)
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testTakeUntilOnVirtualTime() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (2, .next(2)), (3, .next(3)), (4, .completed)])
        let trigger = VirtualTimeSignal<Int>(scheduler, [(2, .next(0))])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        recorder.record(source.signal.take(until: trigger.signal))
        scheduler.run()
        // The trigger was subscribed first, so at t = 2 it fires before the source's 2.
        recorder.assertEvents([(1, .next(1)), (2, .completed)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testTakeUntilOfASynchronousInfiniteSourceEndsWithADownstreamTake() {
        let trigger = Subject<Void, Never>()
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: 1...).take(until: trigger).take(3).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testTakeUntilReleasesCapturedObjects() {
        let trigger = Subject<Int, Never>()
        assertReleasesCapture(ending: .complete) { tracked, s in
            s.take(until: trigger.map { $0 + tracked.id })
        }
        assertReleasesCapture(ending: .dispose) { tracked, s in
            s.map { $0 + tracked.id }.take(until: trigger)
        }
    }

    func testTakeUntilWithASignalStillMeansTheTriggerForm() {
        let trigger = Subject<Int, Never>()
        let source = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        source.take(until: trigger).record(into: log)
        source.send(1)
        trigger.send(0)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    // MARK: Two threads

    /// The source sends and completes on one thread while the trigger fires on another: whichever wins, the
    /// subscriber receives exactly one `completed` (issue 30, bug 5: the source's own disposal after its
    /// completion closed the operator's mailbox, dropping the queued completion).
    func testSourceCompletingWhileTheTriggerFiresOnAnotherThreadSendsExactlyOneCompletion() {
        let rounds = StressScale.scaled(40_000)
        let pair = ThreadPair()
        defer { pair.stop() }
        var missing = 0
        for _ in 0..<rounds {
            let source = Subject<Int, Never>()
            let trigger = Subject<Void, Never>()
            let completions = Atomic<Int>(0)
            let subscription = source.signal.take(until: trigger).subscribe(
                next: { _ in }, completed: { completions.wrappingAdd(1, ordering: .relaxed) })
            guard
                pair.run(
                    {
                        source.send(1)
                        source.sendCompleted()
                    },
                    { trigger.send(()) })
            else { return XCTFail("the two threads did not finish: deadlock?") }
            let count = completions.load(ordering: .relaxed)
            XCTAssertLessThanOrEqual(count, 1, "completed twice")
            if count == 0 { missing += 1 }
            XCTAssertTrue(subscription.isDisposed)
            subscription.dispose()
        }
        XCTAssertEqual(missing, 0, "rounds that ended without a terminal event, of \(rounds)")
    }

    /// Issue 14, scenario 1 (no user code involved): each thread's delivery ends a subscription to the other's
    /// subject.
    func testSubscriptionsToATakeUntilBAndBTakeUntilASentFromTwoThreadsAtOnceDoNotDeadlock() {
        let problems = ProblemLog()
        runLockstepRounds(
            threads: 2, rounds: StressScale.scaled(5_000),
            prepare: { _ -> TakeUntilEachOtherRound in
                var round = TakeUntilEachOtherRound()
                round.record(round.a.take(until: round.b))
                round.record(round.b.take(until: round.a))
                return round
            },
            body: { index, round in
                if index == 0 { round.a.send(0) } else { round.b.send(1) }
            },
            check: { round in
                // Each trigger sent a value, so each subscription completed, once.
                for (name, log) in zip(["a.take(until: b)", "b.take(until: a)"], round.logs)
                where log.events.filter(\.isTerminal).count != 1 || !(log.events.last?.isTerminal ?? false) {
                    problems.add("\(name): \(log.events)")
                }
                for subscription in round.subscriptions { subscription.dispose() }
            })
        XCTAssertEqual(problems.entries, [])
    }

    func testTakeUntilEachOtherFromTwoThreadsDoesNotDeadlock() {
        for _ in 0..<StressScale.scaled(2_000) {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            let first = a.take(until: b).subscribe(next: { _ in })
            let second = b.take(until: a).subscribe(next: { _ in })
            guard runThreads(2, timeout: 60, { index in (index == 0 ? a : b).send(index) }) else { return }
            first.dispose()
            second.dispose()
        }
    }
}

/// What one round of `a.take(until: b)` and `b.take(until: a)` built: the subjects, the subscriptions and
/// their logs.
private struct TakeUntilEachOtherRound {
    let a = Subject<Int, Never>()
    let b = Subject<Int, Never>()
    var subscriptions: [any Disposable] = []
    var logs: [EventLog<Int, Never>] = []

    mutating func record(_ source: some SignalConvertible<Int, Never>) {
        let log = EventLog<Int, Never>()
        subscriptions.append(source.record(into: log))
        logs.append(log)
    }
}
