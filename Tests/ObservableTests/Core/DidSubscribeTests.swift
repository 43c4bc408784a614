import Observable
import TetherTestSupport
import XCTest

/// `ObserverProtocol.didSubscribe(with:)`: RAC's `-didSubscribeWithDisposable:`, called on a custom
/// subscriber before its subscription starts.
final class DidSubscribeTests: XCTestCase {
    /// Records what it is told, in order; optionally disposes its subscription at once, or after the
    /// first value.
    final class RecordingObserver: ObserverProtocol {
        enum Entry: Equatable {
            case subscribed
            case event(String)
        }
        var entries: [Entry] = []
        var subscriptions: [any Disposable] = []
        var disposeInHook = false
        var disposeAfterFirstValue = false

        func didSubscribe(with subscription: any Disposable) {
            entries.append(.subscribed)
            subscriptions.append(subscription)
            if disposeInHook { subscription.dispose() }
        }

        func send(event: Event<Int, Never>) {
            entries.append(.event("\(event)"))
            if disposeAfterFirstValue, event.value != nil { subscriptions.last?.dispose() }
        }
    }

    func testTheHookIsCalledOnceBeforeAnyEventWithTheSubscriptionsDisposable() {
        let observer = RecordingObserver()
        let returned = Signal(values: [1, 2]).subscribe(observer)
        XCTAssertEqual(observer.entries, [.subscribed, .event("next(1)"), .event("next(2)"), .event("completed")])
        XCTAssertEqual(observer.subscriptions.count, 1)
        XCTAssertTrue(observer.subscriptions.first === returned)
    }

    func testEachSubscriptionCallsTheHookWithItsOwnDisposable() {
        let observer = RecordingObserver()
        let source = Subject<Int, Never>()
        let first = source.subscribe(observer)
        let second = source.subscribe(observer)
        XCTAssertEqual(observer.subscriptions.count, 2)
        XCTAssertTrue(observer.subscriptions[0] === first)
        XCTAssertTrue(observer.subscriptions[1] === second)
    }

    func testDisposingInTheHookDeliversNothingAndRunsTheRecipesCleanup() {
        let observer = RecordingObserver()
        observer.disposeInHook = true
        let cleanedUp = Counter()
        let source = Signal<Int, Never> { observer in
            observer.send(1)
            return AnyDisposable { cleanedUp.increment() }
        }
        source.subscribe(observer)
        XCTAssertEqual(observer.entries, [.subscribed])
        XCTAssertEqual(cleanedUp.value, 1)
    }

    func testTheKeptDisposableEndsTheSubscriptionWhenTheObserverDecides() {
        let observer = RecordingObserver()
        observer.disposeAfterFirstValue = true
        let source = Subject<Int, Never>()
        source.subscribe(observer)
        source.send(1)
        source.send(2)
        source.sendCompleted()
        XCTAssertEqual(observer.entries, [.subscribed, .event("next(1)")])
    }
}
