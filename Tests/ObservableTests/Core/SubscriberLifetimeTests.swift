import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's lifetime rule (issue 15, items 1–3): a subscription ends on its terminal event, on
/// `dispose()`, or when its subscriber goes away; a subscriber that someone else holds (a subject
/// subscribed as an observer, an ``Observer`` the caller keeps) keeps its subscriptions, collects them,
/// and disposes them when it terminates. Test names follow the RAC spec cases they mirror
/// (`RACSignalSpec`, `RACSubscriberExamples`).
final class SubscriberLifetimeTests: ResourceCheckedTestCase {
    /// A recipe that keeps nothing: it only counts how often its cleanup ran.
    private func recipeDroppingItsObserver(cleanups: Counter) -> Signal<Int, Never> {
        Signal { _ in AnyDisposable { cleanups.increment() } }
    }

    // MARK: Item 1 — a subscriber someone else holds

    func testASubjectSubscribedAsAnObserverKeepsTheSubscriptionAfterTheRecipeDropsItsObserver() {
        let cleanups = Counter()
        let relay = Subject<Int, Never>()
        let subscription = recipeDroppingItsObserver(cleanups: cleanups).subscribe(relay)
        XCTAssertEqual(cleanups.value, 0, "the subject is alive: the subscription lives")
        XCTAssertFalse(subscription.isDisposed)
        relay.sendCompleted()
        XCTAssertEqual(cleanups.value, 1, "the subject terminated: its subscriptions end")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAReplaySubjectSubscribedAsAnObserverKeepsTheSubscriptionUntilItGoesAway() {
        let cleanups = Counter()
        var relay: ReplaySubject<Int, Never>? = ReplaySubject()
        let subscription = recipeDroppingItsObserver(cleanups: cleanups).subscribe(relay!)
        XCTAssertEqual(cleanups.value, 0)
        relay = nil
        XCTAssertEqual(cleanups.value, 1, "the subject went away: its subscriptions end")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAClosureSubscriberStillEndsWhenTheRecipeDropsItsObserver() {
        let cleanups = Counter()
        let subscription = recipeDroppingItsObserver(cleanups: cleanups).subscribe(next: { _ in })
        XCTAssertEqual(cleanups.value, 1, "nothing can send any more: the subscription ends and frees itself")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAnObserverTheCallerKeepsKeepsTheSubscriptionsMadeWithIt() {
        let cleanups = Counter()
        let received = EventLog<Int, Never>()
        let kept = Mutex<Observer<Int, Never>?>(nil)
        let outer = Signal<Int, Never> { observer in
            kept.withLock { $0 = observer }
            return nil
        }
        let outerSubscription = outer.record(into: received)
        let source = Subject<Int, Never>()
        let inner = Signal<Int, Never> { observer in
            source.subscribe(observer)
            return AnyDisposable { cleanups.increment() }
        }
        let observer = kept.withLock { $0 }!
        inner.subscribe(observer)
        source.send(7)
        XCTAssertEqual(received.values, [7], "the kept observer still forwards")
        XCTAssertEqual(cleanups.value, 0)
        outerSubscription.dispose()
        XCTAssertEqual(cleanups.value, 1, "disposing the outer subscription ends what was made with its observer")
        kept.withLock { $0 = nil }
    }

    // MARK: Item 2 — inner subscriptions made with the outer observer

    func testRACSignalSpecShouldAutomaticallyDisposeOfOtherSubscriptionsFromCreateSignal() {
        let innerDisposed = Counter()
        // The inner recipe keeps its observer (in its cleanup) until it is disposed: the inner
        // subscription is live, and it holds the outer observer.
        let innerSignal: @Sendable () -> Signal<Int, Never> = {
            Signal { observer in
                AnyDisposable { withExtendedLifetime(observer) { innerDisposed.increment() } }
            }
        }
        let outerSignal = Signal<Int, Never> { observer in
            innerSignal().subscribe(observer)
            return nil
        }
        let disposable = outerSignal.subscribe(completed: {})
        XCTAssertEqual(innerDisposed.value, 0)
        disposable.dispose()
        XCTAssertEqual(innerDisposed.value, 1)
    }

    func testInnerSubscriptionsMadeWithTheOuterObserverEndWhenTheOuterCompletes() {
        let innerDisposed = Counter()
        let source = Subject<Int, Never>()
        let innerSignal: @Sendable () -> Signal<Int, Never> = {
            Signal { observer in
                source.subscribe(observer)
                return AnyDisposable { innerDisposed.increment() }
            }
        }
        let log = EventLog<Int, Never>()
        Signal<Int, Never> { observer in
            innerSignal().subscribe(observer)
            return nil
        }.record(into: log)
        source.send(1)
        source.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .completed])
        XCTAssertEqual(innerDisposed.value, 1)
    }

    // MARK: Item 3 — a terminated subscriber (RACSubscriberExamples, for Observer, Subject, ReplaySubject)

    /// Two signals that count their cleanups, and a way to end the first one.
    private final class TwoSources: @unchecked Sendable {
        let first = Subject<Int, TestError>()
        let cleanups = Counter()
        var firstSignal: Signal<Int, TestError> {
            let first = self.first
            let cleanups = self.cleanups
            return Signal { observer in
                first.subscribe(observer)
                return AnyDisposable { cleanups.increment() }
            }
        }
        var secondSignal: Signal<Int, TestError> {
            let cleanups = self.cleanups
            return Signal { observer in
                _ = observer  // kept by the recipe's closure only while it runs
                return AnyDisposable { cleanups.increment() }
            }
        }
        /// A recipe that keeps its observer until it is disposed, and counts that disposal.
        func signalKeepingItsObserver(_ disposals: Counter) -> Signal<Int, TestError> {
            Signal { observer in
                AnyDisposable { withExtendedLifetime(observer) { disposals.increment() } }
            }
        }
    }

    private func assertStopsListeningToOtherSignalsWhenItTerminates<S: ObserverProtocol>(
        _ subscriber: S, terminate: (Subject<Int, TestError>) -> Void, file: StaticString = #filePath,
        line: UInt = #line
    ) where S.Value == Int, S.Failure == TestError {
        let sources = TwoSources()
        let secondDisposals = Counter()
        sources.firstSignal.subscribe(subscriber)
        sources.signalKeepingItsObserver(secondDisposals).subscribe(subscriber)
        XCTAssertEqual(secondDisposals.value, 0, file: file, line: line)
        terminate(sources.first)
        XCTAssertEqual(secondDisposals.value, 1, "the other subscription ended", file: file, line: line)
        let lateDisposals = Counter()
        sources.signalKeepingItsObserver(lateDisposals).subscribe(subscriber)
        XCTAssertEqual(
            lateDisposals.value, 1, "a subscription made after it terminated ends at once", file: file, line: line)
    }

    func testRACSubscriberExamplesASubjectShouldStopListeningToOtherSignalsWhenItReceivesAnError() {
        assertStopsListeningToOtherSignalsWhenItTerminates(Subject<Int, TestError>()) { $0.sendError(TestError(1)) }
    }

    func testRACSubscriberExamplesASubjectShouldStopListeningToOtherSignalsWhenItReceivesCompleted() {
        assertStopsListeningToOtherSignalsWhenItTerminates(Subject<Int, TestError>()) { $0.sendCompleted() }
    }

    func testRACSubscriberExamplesAReplaySubjectShouldStopListeningToOtherSignalsWhenItTerminates() {
        assertStopsListeningToOtherSignalsWhenItTerminates(ReplaySubject<Int, TestError>()) { $0.sendCompleted() }
        assertStopsListeningToOtherSignalsWhenItTerminates(ReplaySubject<Int, TestError>()) {
            $0.sendError(TestError(2))
        }
    }

    func testRACSubscriberExamplesAnObserverShouldStopListeningToOtherSignalsWhenItTerminates() {
        for terminatesWithError in [false, true] {
            let kept = Mutex<Observer<Int, TestError>?>(nil)
            let log = EventLog<Int, TestError>()
            Signal<Int, TestError> { observer in
                kept.withLock { $0 = observer }
                return nil
            }.record(into: log)
            let observer = kept.withLock { $0 }!
            assertStopsListeningToOtherSignalsWhenItTerminates(observer) { first in
                if terminatesWithError { first.sendError(TestError(3)) } else { first.sendCompleted() }
            }
            XCTAssertEqual(log.events.count, 1, "one terminal event reached the outer subscriber")
            kept.withLock { $0 = nil }
        }
    }
}
