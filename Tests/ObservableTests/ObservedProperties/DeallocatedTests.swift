import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class DeallocatedTests: ResourceCheckedTestCase {
    func testDeallocatedCompletesWhenTheObjectDeinitializesWithoutAnyValue() {
        var counter: CounterModel? = CounterModel()
        let log = EventLog<Void, Never>()
        counter!.deallocated.record(into: log)
        XCTAssertEqual(log.count, 0)
        counter = nil
        XCTAssertEqual(log.count, 1)
        XCTAssertTrue(log.events.first?.isTerminal ?? false)
        XCTAssertTrue(log.values.isEmpty)
    }

    func testDeallocatedWorksWhenAPropertyIsAlreadyObserved() {
        var counter: CounterModel? = CounterModel()
        let values = EventLog<String, Never>()
        counter!.observe(\.label).record(into: values)
        let completed = Counter()
        counter!.deallocated.subscribe(completed: { completed.increment() })
        counter = nil
        XCTAssertEqual(completed.value, 1)
        XCTAssertEqual(values.events.last?.isTerminal, true)
    }

    func testDeallocatedDoesNotKeepTheObjectAlive() {
        var counter: CounterModel? = CounterModel()
        weak let weakCounter = counter
        let subscription = counter!.deallocated.subscribe()
        counter = nil
        XCTAssertNil(weakCounter)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSubscribingAfterTheObjectIsGoneCompletesAtOnce() {
        var counter: CounterModel? = CounterModel()
        let signal = counter!.deallocated
        counter = nil
        let completed = Counter()
        signal.subscribe(completed: { completed.increment() })
        XCTAssertEqual(completed.value, 1)
    }

    func testDeallocatedSeesAnInheritedObservedProperty() {
        var object: OnlyInherits? = OnlyInherits()
        let completed = Counter()
        object!.deallocated.subscribe(completed: { completed.increment() })
        object = nil
        XCTAssertEqual(completed.value, 1)
    }

    func testDisposingDeallocatedReleasesItsObserver() {
        let counter = CounterModel()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let subscription = counter.deallocated.subscribe(completed: { [captured] in _ = captured })
        captured = nil
        XCTAssertNotNil(weakCaptured)
        subscription.dispose()
        XCTAssertNil(weakCaptured)
    }

    func testClassWithoutObservedPropertyWarnsAndNeverCompletes() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        var bare: Bare? = Bare()
        let completed = Counter()
        bare!.deallocated.subscribe(completed: { completed.increment() })
        XCTAssertEqual(recorder.warnings.map(\.kind), [.noLifetimeStorage])
        XCTAssertTrue(recorder.warnings.first?.message.contains("Bare") ?? false)
        bare = nil
        XCTAssertEqual(completed.value, 0)
    }

    func testGenericClassesAreObservableAndReportTheirDeallocation() {
        var holder: GenericHolder<[String]>? = GenericHolder(["a"])
        let completed = Counter()
        holder!.deallocated.subscribe(completed: { completed.increment() })
        let log = EventLog<[String], Never>()
        holder!.observe(\.element).record(into: log)
        holder!.element.append("b")
        holder = nil
        XCTAssertEqual(completed.value, 1)
        XCTAssertEqual(log.events, [.next(["a"]), .next(["a", "b"]), .completed])
    }

    func testAVoidObservedPropertyIsEnoughLifetimeStorage() {
        var holder: PlainHolder? = PlainHolder()
        let completed = Counter()
        holder!.deallocated.subscribe(completed: { completed.increment() })
        holder = nil
        XCTAssertEqual(completed.value, 1)
    }
}

final class GenericHolder<Element>: KeyPathObservable {
    @Observed var element: Element
    init(_ element: Element) { self.element = element }
}

final class OnlyInherits: BaseObservable {
    var extra = 0
}
