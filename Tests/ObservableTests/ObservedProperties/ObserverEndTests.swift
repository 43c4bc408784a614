import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// How an `observe(\.property)` subscription on the fast path (one `@Observed` property of the object itself)
/// ends. Its observer's callbacks end the subscription themselves when the object deinitializes (issue 45:
/// no closure is made for that any more), so these pin what that closure used to do: an event subscriber
/// gets `.completed` once, every subscriber's subscription is disposed and its closures released, and a
/// subscription that already ended hears nothing more.
final class ObserverEndTests: ResourceCheckedTestCase {
    func testAValuesOnlyObserverEndsAndIsReleasedWhenTheObjectDeinitializes() {
        var model: CounterModel? = CounterModel()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let values = Counter()
        let subscription = model!.observe(\.count).subscribe(next: { [captured] value in
            _ = captured
            values.increment(by: value + 1)
        })
        captured = nil
        model!.count = 1
        XCTAssertEqual(values.value, 3)  // 0 + 1, then 1 + 1
        XCTAssertFalse(subscription.isDisposed)
        model = nil
        XCTAssertTrue(subscription.isDisposed, "the object's deinit ends the subscription")
        XCTAssertNil(weakCaptured, "the object's deinit releases the observer's closure")
    }

    func testAnObserverWithACompletionGetsItOnceWhenTheObjectDeinitializes() {
        var model: CounterModel? = CounterModel()
        let completions = Counter()
        let values = Counter()
        let subscription = model!.observe(\.count).subscribe(
            next: { _ in values.increment() }, completed: { completions.increment() })
        model!.count = 1
        model = nil
        XCTAssertEqual(values.value, 2)
        XCTAssertEqual(completions.value, 1)
        XCTAssertTrue(subscription.isDisposed)
        subscription.dispose()  // after the end: no effect
        XCTAssertEqual(completions.value, 1)
    }

    func testAnEventObserverThroughAnOperatorCompletesAndEndsWhenTheObjectDeinitializes() {
        var model: CounterModel? = CounterModel()
        let log = EventLog<Int, Never>()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let subscription = model!.observe(\.count).map { $0 * 10 }.subscribeEvents { [captured] event in
            _ = captured
            log.append(event)
        }
        captured = nil
        model!.count = 2
        model = nil
        XCTAssertEqual(log.events, [.next(0), .next(20), .completed])
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertNil(weakCaptured)
    }

    func testAnObserverDisposedFromItsOwnCallbackIsReleasedWhenTheSetReturns() {
        var model: CounterModel? = CounterModel()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let log = EventLog<Int, Never>()
        let completions = Counter()
        let holder = SubscriptionHolder()
        holder.subscription = model!.observe(\.count).subscribe(
            next: { [captured] value in
                _ = captured
                log.append(.next(value))
                if value == 1 { holder.subscription?.dispose() }
            },
            completed: { completions.increment() })
        captured = nil
        model!.count = 1
        XCTAssertEqual(holder.subscription?.isDisposed, true)
        XCTAssertNil(weakCaptured, "released once the delivery that disposed it ended")
        model!.count = 2
        model = nil
        XCTAssertEqual(log.values, [0, 1])
        XCTAssertEqual(completions.value, 0, "a disposed subscription hears no completion")
    }

    func testOnlyTheObserversStillLiveEndWhenTheObjectDeinitializes() {
        var model: CounterModel? = CounterModel()
        let completions = Counter()
        let kept = (0..<3).map { _ in
            model!.observe(\.count).subscribe(next: { _ in }, completed: { completions.increment() })
        }
        kept[1].dispose()
        model!.count = 1
        model = nil
        XCTAssertEqual(completions.value, 2)
        XCTAssertTrue(kept.allSatisfy(\.isDisposed))
    }
}
