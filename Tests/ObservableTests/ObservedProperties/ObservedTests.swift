import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class ObservedTests: ResourceCheckedTestCase {
    func testObserveSendsCurrentValueThenEverySetIncludingEqualOnes() {
        let counter = CounterModel()
        counter.count = 5
        let log = EventLog<Int, Never>()
        counter.observe(\.count).record(into: log)
        counter.count = 6
        counter.count = 6
        counter.count = 7
        XCTAssertEqual(log.events, [.next(5), .next(6), .next(6), .next(7)])
    }

    func testReadsAndWritesBehaveLikeAStoredProperty() {
        let counter = CounterModel()
        XCTAssertEqual(counter.count, 0)
        counter.count += 2
        counter.count *= 10
        XCTAssertEqual(counter.count, 20)
        counter.observe(\.count).subscribe()
        counter.count += 1
        XCTAssertEqual(counter.count, 21)
    }

    func testObserveCompletesWhenObjectDeinitializes() {
        var counter: CounterModel? = CounterModel()
        let log = EventLog<Int, Never>()
        counter!.observe(\.count).record(into: log)
        counter!.count = 1
        counter = nil
        XCTAssertEqual(log.events, [.next(0), .next(1), .completed])
    }

    func testObservationDoesNotKeepTheObjectAlive() {
        var counter: CounterModel? = CounterModel()
        weak let weakCounter = counter
        let subscription = counter!.observe(\.count).subscribe(next: { _ in })
        counter = nil
        XCTAssertNil(weakCounter)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSignalHeldAfterObjectIsGoneCompletesAtOnce() {
        var counter: CounterModel? = CounterModel()
        let signal = counter!.observe(\.count)
        counter = nil
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testEachSubscriptionGetsItsOwnCurrentValue() {
        let counter = CounterModel()
        let signal = counter.observe(\.count)
        counter.count = 3
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.values, [3])
    }

    func testDisposingStopsDeliveryAndReleasesTheObserverAtOnce() {
        let counter = CounterModel()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let log = EventLog<Int, Never>()
        let subscription = counter.observe(\.count).subscribe(next: { [captured] value in
            _ = captured
            log.append(.next(value))
        })
        captured = nil
        counter.count = 1
        subscription.dispose()
        XCTAssertNil(weakCaptured, "disposing must release the observer's closure without waiting for a set")
        counter.count = 2
        XCTAssertEqual(log.values, [0, 1])
    }

    func testDisposingFromInsideTheObserverStopsFurtherValues() {
        let counter = CounterModel()
        let log = EventLog<Int, Never>()
        let holder = SubscriptionHolder()
        holder.subscription = counter.observe(\.count).subscribe(next: { value in
            log.append(.next(value))
            if value == 1 { holder.subscription?.dispose() }
        })
        counter.count = 1
        counter.count = 2
        XCTAssertEqual(log.values, [0, 1])
    }

    func testSeveralObserversAllReceiveEverySet() {
        let counter = CounterModel()
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        let third = EventLog<Int, Never>()
        counter.observe(\.count).record(into: first)
        let middle = counter.observe(\.count).record(into: second)
        counter.observe(\.count).record(into: third)
        counter.count = 1
        middle.dispose()
        counter.count = 2
        XCTAssertEqual(first.values, [0, 1, 2])
        XCTAssertEqual(second.values, [0, 1])
        XCTAssertEqual(third.values, [0, 1, 2])
    }

    func testSetFromInsideAnObserverIsDeliveredAfterTheCurrentValueToEveryObserver() {
        expectLiveSubscriptions("the observer captures the observed object")
        let counter = CounterModel()
        let order = EventLog<String, Never>()
        counter.observe(\.count).subscribe(next: { value in
            order.append(.next("A\(value)"))
            if value == 1 { counter.count = 2 }
        })
        counter.observe(\.count).subscribe(next: { value in
            order.append(.next("B\(value)"))
        })
        counter.count = 1
        XCTAssertEqual(order.values, ["A0", "B0", "A1", "B1", "A2", "B2"])
        XCTAssertEqual(counter.count, 2)
    }

    func testSetFromInsideTheInitialValueIsDeliveredAfterIt() {
        expectLiveSubscriptions("the observer captures the observed object")
        let counter = CounterModel()
        let log = EventLog<Int, Never>()
        counter.observe(\.count).subscribe(next: { value in
            log.append(.next(value))
            if value == 0 { counter.count = 1 }
        })
        XCTAssertEqual(log.values, [0, 1])
    }

    func testSubscribingFromInsideAnObserverGetsTheCurrentValueThenLaterSets() {
        expectLiveSubscriptions("the observer captures the observed object")
        let counter = CounterModel()
        let inner = EventLog<Int, Never>()
        let holder = SubscriptionHolder()
        counter.observe(\.count).subscribe(next: { value in
            if value == 1, holder.subscription == nil {
                holder.subscription = counter.observe(\.count).record(into: inner)
            }
        })
        counter.count = 1
        counter.count = 2
        XCTAssertEqual(inner.values, [1, 2])
    }

    func testPropertiesOfOneObjectAreObservedIndependently() {
        let counter = CounterModel()
        let counts = EventLog<Int, Never>()
        let labels = EventLog<String, Never>()
        counter.observe(\.count).record(into: counts)
        counter.observe(\.label).record(into: labels)
        counter.count = 1
        counter.label = "b"
        XCTAssertEqual(counts.values, [0, 1])
        XCTAssertEqual(labels.values, ["a", "b"])
    }

    func testOptionalPropertiesSendNil() {
        let model = LoginViewModel()
        let log = EventLog<Account?, Never>()
        model.observe(\.backup).record(into: log)
        let backup = Account(name: "b")
        model.backup = backup
        model.backup = nil
        XCTAssertEqual(log.values.map { $0?.name }, [nil, "b", nil])
    }

    func testInheritedAndOwnPropertiesOfASubclassAreObservable() {
        let object = DerivedObservable()
        let base = EventLog<Int, Never>()
        let own = EventLog<String, Never>()
        object.observe(\.baseValue).record(into: base)
        object.observe(\.derivedValue).record(into: own)
        object.baseValue = 1
        object.derivedValue = "y"
        XCTAssertEqual(base.values, [0, 1])
        XCTAssertEqual(own.values, ["x", "y"])
    }

    @MainActor
    func testMainActorViewModelIsObservable() {
        let model = MainActorViewModel()
        let log = EventLog<String, Never>()
        model.observe(\.title).record(into: log)
        model.title = "ready"
        XCTAssertEqual(log.values, ["", "ready"])
    }

    func testInPlaceMutationSendsTheNewValueOnce() {
        let roster = Roster()
        let log = EventLog<[Int], Never>()
        roster.observe(\.items).record(into: log)
        roster.items.append(1)
        roster.items[0] += 10
        XCTAssertEqual(log.values, [[], [1], [11]])
    }

    func testInPlaceMutationSendsPriorChangeBeforeIt() {
        let roster = Roster()
        let log = EventLog<Change<[Int]>, Never>()
        roster.valuesAndChanges(\.items, options: [.prior, .old, .new]).record(into: log)
        roster.items.append(1)
        XCTAssertEqual(
            log.values,
            [Change(oldValue: [], newValue: nil, isPrior: true), Change(oldValue: [], newValue: [1], isPrior: false)])
    }

    func testReplacingAnObservedElementInPlaceFollowsTheNewElement() {
        // The old element deinitializes inside the mutation's access to `accounts`; the observation
        // must not read `accounts` at that moment, only after the mutation.
        let roster = Roster()
        roster.accounts = [Account(name: "a")]
        let log = EventLog<String?, Never>()
        roster.observe(\.accounts.first?.name).record(into: log)
        roster.accounts[0] = Account(name: "b")
        roster.accounts[0].name = "c"
        roster.accounts.removeAll()
        XCTAssertEqual(log.values, ["a", "b", "c", nil])
    }

    func testNothingIsSentAfterCompletion() {
        var counter: CounterModel? = CounterModel()
        let log = EventLog<Int, Never>()
        let signal = counter!.observe(\.count)
        signal.record(into: log)
        counter = nil
        XCTAssertEqual(log.events.last, .completed)
        XCTAssertEqual(log.events.filter(\.isTerminal).count, 1)
    }
}

final class SubscriptionHolder: @unchecked Sendable {
    var subscription: (any Disposable)?
}

class BaseObservable: KeyPathObservable {
    @Observed var baseValue = 0
}

final class DerivedObservable: BaseObservable {
    @Observed var derivedValue = "x"
}

@MainActor
final class MainActorViewModel: KeyPathObservable {
    @Observed var title = ""
}
