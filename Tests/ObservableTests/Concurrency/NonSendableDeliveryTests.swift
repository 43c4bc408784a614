import Dispatch
import Observable
import TetherTestSupport
import XCTest

/// Not `Sendable`: a plain class with mutable state, as a RAC port's model objects are.
private final class Model {
    var rows: [String] = []
    init(_ rows: [String]) { self.rows = rows }
}

/// `Signal.start(on:deliveringOn:_:)`: a non-`Sendable` value built on one scheduler and delivered on
/// another (the issue 16 trap "Sendable requirements stop deliver(on:)").
final class NonSendableDeliveryTests: XCTestCase {
    func testWorkRunsOnTheWorkSchedulerAndItsValueArrivesOnTheDeliverySchedulerThenCompletes() {
        let work = TestScheduler()
        let delivery = TestScheduler()
        let ran = Counter()
        let rows = SchedulerTestBox<[[String]]>([])
        let completed = Counter()
        Signal<Model, Never>.start(on: work, deliveringOn: delivery) {
            ran.increment()
            return Model(["a", "b"])
        }.subscribe(next: { rows.value.append($0.rows) }, completed: { completed.increment() })
        XCTAssertEqual(ran.value, 0)
        delivery.advance()
        XCTAssertEqual(rows.value, [], "nothing to deliver before the work ran")
        work.advance()
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(rows.value, [], "the value waits for the delivery scheduler")
        delivery.advance()
        XCTAssertEqual(rows.value, [["a", "b"]])
        XCTAssertEqual(completed.value, 1)
    }

    func testAnErrorTheWorkThrowsIsSentInsteadOfAValue() {
        let scheduler = TestScheduler()
        let log = EventLog<Int, TestError>()
        Signal<Model, TestError>.start(on: scheduler, deliveringOn: scheduler) { () throws(TestError) -> Model in
            throw TestError(5)
        }.map { $0.rows.count }.record(into: log)
        scheduler.run()
        XCTAssertEqual(log.events.count, 1)
        XCTAssertEqual(log.events.first?.error, TestError(5))
    }

    func testDisposingBeforeTheWorkRanCancelsIt() {
        let scheduler = TestScheduler()
        let ran = Counter()
        Signal<Model, Never>.start(on: scheduler, deliveringOn: scheduler) {
            ran.increment()
            return Model([])
        }.subscribe().dispose()
        scheduler.run()
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingBeforeTheDeliveryDropsTheValue() {
        let work = TestScheduler()
        let delivery = TestScheduler()
        let received = Counter()
        let subscription = Signal<Model, Never>.start(on: work, deliveringOn: delivery) { Model(["x"]) }
            .subscribe(next: { _ in received.increment() })
        work.run()
        subscription.dispose()
        delivery.run()
        XCTAssertEqual(received.value, 0)
    }

    func testEachSubscriptionRunsTheWorkAgain() {
        let scheduler = TestScheduler()
        let ran = Counter()
        let signal = Signal<Model, Never>.start(on: scheduler, deliveringOn: scheduler) {
            ran.increment()
            return Model([])
        }
        signal.subscribe()
        signal.subscribe()
        scheduler.run()
        XCTAssertEqual(ran.value, 2)
    }

    func testBuiltOnABackgroundQueueAndDeliveredOnTheMainQueue() {
        let background = QueueScheduler(name: "work")
        let onBackground = SchedulerTestBox<Bool?>(nil)
        let onMain = SchedulerTestBox<Bool?>(nil)
        let delivered = expectation(description: "delivered on main")
        Signal<Model, Never>.start(on: background, deliveringOn: QueueScheduler.main) {
            onBackground.value = background.isCurrent
            return Model(["built in the background"])
        }.subscribe(next: { model in
            onMain.value = QueueScheduler.main.isCurrent && model.rows == ["built in the background"]
            delivered.fulfill()
        })
        wait(for: [delivered], timeout: 10)
        XCTAssertEqual(onBackground.value, true)
        XCTAssertEqual(onMain.value, true)
    }
}
