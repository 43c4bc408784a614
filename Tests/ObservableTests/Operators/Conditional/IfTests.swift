import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class IfTests: ResourceCheckedTestCase {
    private struct Scenario {
        let condition = Subject<Bool, TestError>()
        let whenTrue = Subject<String, TestError>()
        let whenFalse = Subject<String, TestError>()
        let log = EventLog<String, TestError>()

        init() {
            Signal.if(condition, then: whenTrue, else: whenFalse).record(into: log)
        }
    }

    // RAC: "should not send any values before a boolean is sent"
    func testIfDoesNotSendAnyValuesBeforeABooleanIsSent() {
        let scenario = Scenario()
        scenario.whenTrue.send("foo")
        scenario.whenFalse.send("bar")
        XCTAssertEqual(scenario.log.events, [])
    }

    // RAC: "should send events based on the latest boolean"
    func testIfSendsEventsBasedOnTheLatestBoolean() {
        let scenario = Scenario()
        scenario.condition.send(true)
        scenario.whenTrue.send("foo")
        scenario.whenFalse.send("buzz")
        scenario.whenTrue.send("bar")
        XCTAssertEqual(scenario.log.values, ["foo", "bar"])

        scenario.condition.send(false)
        scenario.whenTrue.send("baz")
        scenario.whenFalse.send("buzz")
        scenario.whenTrue.send("barfoo")
        XCTAssertEqual(scenario.log.events, [.next("foo"), .next("bar"), .next("buzz")])

        scenario.whenTrue.sendError(TestError(1))
        XCTAssertEqual(scenario.log.count, 3)
        scenario.whenFalse.sendError(TestError(2))
        XCTAssertEqual(scenario.log.events.last, .error(TestError(2)))
    }

    // RAC: "should not send completed when only the BOOL signal completes"
    func testIfDoesNotSendCompletedWhenOnlyTheBoolSignalCompletes() {
        let scenario = Scenario()
        scenario.condition.send(true)
        scenario.whenTrue.send("foo")
        scenario.condition.sendCompleted()
        XCTAssertEqual(scenario.log.events, [.next("foo")])
    }

    // RAC: "should send completed when the BOOL signal and the latest sent signal complete"
    func testIfSendsCompletedWhenTheBoolSignalAndTheLatestSentSignalComplete() {
        let scenario = Scenario()
        scenario.condition.send(true)
        scenario.whenTrue.send("foo")
        scenario.whenTrue.sendCompleted()
        scenario.condition.sendCompleted()
        XCTAssertEqual(scenario.log.events, [.next("foo"), .completed])
    }

    func testIfFailsWhenTheConditionFails() {
        let scenario = Scenario()
        scenario.condition.send(true)
        scenario.condition.sendError(TestError(5))
        scenario.whenTrue.send("late")
        XCTAssertEqual(scenario.log.events, [.error(TestError(5))])
    }

    // condition `-t---f-f-|` (1 s a dash), then `-1-2|`, else `-3|`: a repeated `false` resubscribes.
    func testIfOnVirtualTimeResubscribesTheChosenSignalForEachBoolean() {
        let scheduler = TestScheduler()
        let condition = VirtualTimeSignal<Bool>(
            scheduler, [(1, .next(true)), (5, .next(false)), (7, .next(false)), (9, .completed)])
        let whenTrue = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (3, .next(2)), (4, .completed)])
        let whenFalse = VirtualTimeSignal<Int>(scheduler, [(1, .next(3)), (2, .completed)])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        recorder.record(Signal.if(condition.signal, then: whenTrue.signal, else: whenFalse.signal))
        scheduler.run()
        recorder.assertEvents([(2, .next(1)), (4, .next(2)), (6, .next(3)), (8, .next(3)), (9, .completed)])
        XCTAssertEqual(whenTrue.subscriptions.value, 1)
        XCTAssertEqual(whenFalse.subscriptions.value, 2)
        XCTAssertEqual(whenFalse.disposals.value, 2)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testIfDisposalDisposesTheConditionAndTheChosenSignal() {
        let scheduler = TestScheduler()
        let condition = VirtualTimeSignal<Bool>(scheduler, [(1, .next(true))])
        let whenTrue = VirtualTimeSignal<Int>(scheduler, [(5, .next(1))])
        let whenFalse = VirtualTimeSignal<Int>(scheduler, [])
        let subscription = Signal.if(condition.signal, then: whenTrue.signal, else: whenFalse.signal).subscribe()
        scheduler.advance(by: .seconds(2))
        subscription.dispose()
        XCTAssertEqual(condition.disposals.value, 1)
        XCTAssertEqual(whenTrue.disposals.value, 1)
        XCTAssertEqual(whenFalse.subscriptions.value, 0)
        scheduler.run()
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}
