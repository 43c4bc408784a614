import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class LifecycleSideEffectsTests: ResourceCheckedTestCase {
    // MARK: initially

    // RAC: "should not run without a subscription"
    func testInitiallyDoesNotRunWithoutASubscription() {
        let runs = Counter()
        _ = Signal<Int, TestError>(values: [1]).initially { runs.increment() }
        XCTAssertEqual(runs.value, 0)
    }

    // RAC: "should run on subscription", once per subscription
    func testInitiallyRunsBeforeEachSubscriptionToTheSource() {
        let trace = Locked<[String]>([])
        let source = Signal<Int, TestError> { observer in
            trace.append("subscribed")
            observer.send(1)
            observer.sendCompleted()
            return nil
        }
        let signal = source.initially { trace.append("initially") }
        signal.subscribe(next: { trace.append("next \($0)") })
        signal.subscribe(next: { trace.append("next \($0)") })
        XCTAssertEqual(
            trace.values, ["initially", "subscribed", "next 1", "initially", "subscribed", "next 1"])
    }

    func testInitiallyOnVirtualTimeRunsAtSubscriptionNotAtTheFirstValue() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(2, .next(1)), (3, .completed)])
        let ranAt = Locked<[Duration]>([])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        scheduler.advance(by: .seconds(1))
        recorder.record(source.signal.initially { ranAt.append(scheduler.now) })
        scheduler.run()
        XCTAssertEqual(ranAt.values, [.seconds(1)])
        recorder.assertEvents([(3, .next(1)), (4, .completed)])
    }

    // MARK: finally

    // RAC: "should not run finally without a subscription"
    func testFinallyDoesNotRunWithoutASubscription() {
        let runs = Counter()
        _ = Signal<Int, TestError>(values: [1]).finally { runs.increment() }
        XCTAssertEqual(runs.value, 0)
    }

    // RAC: "should not run finally upon next"
    func testFinallyDoesNotRunUponNext() {
        let runs = Counter()
        let subject = Subject<Int, TestError>()
        subject.finally { runs.increment() }.subscribe()
        subject.send(1)
        XCTAssertEqual(runs.value, 0)
    }

    // RAC: "should run finally upon completed"
    func testFinallyRunsUponCompletedBeforeCompletedIsSentOn() {
        let trace = Locked<[String]>([])
        let subject = Subject<Int, TestError>()
        subject.finally { trace.append("finally") }.subscribe(
            next: { trace.append("next \($0)") }, completed: { trace.append("completed") })
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(trace.values, ["next 1", "finally", "completed"])
    }

    // RAC: "should run finally upon error"
    func testFinallyRunsUponErrorBeforeTheErrorIsSentOn() {
        let trace = Locked<[String]>([])
        let subject = Subject<Int, TestError>()
        subject.finally { trace.append("finally") }.subscribe(error: { trace.append("error \($0.code)") })
        subject.sendError(TestError(4))
        XCTAssertEqual(trace.values, ["finally", "error 4"])
    }

    // RAC 2.5's finally: is doError + doCompleted: disposal alone does not run it.
    func testFinallyDoesNotRunWhenTheSubscriptionIsDisposed() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (5, .completed)])
        let runs = Counter()
        let subscription = source.signal.finally { runs.increment() }.subscribe()
        scheduler.advance(by: .seconds(2))
        subscription.dispose()
        scheduler.run()
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testFinallyDoesNotRunWhenTakeEndsTheSubscription() {
        let runs = Counter()
        let log = EventLog<Int, Never>()
        Signal(values: 1...).finally { runs.increment() }.take(2).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(runs.value, 0)
    }

    func testFinallyOnVirtualTimeRunsAtTheTerminalEvent() {
        let scheduler = TestScheduler()
        let source = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (3, .error(TestError(2)))])
        let ranAt = Locked<[Duration]>([])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        recorder.record(source.signal.finally { ranAt.append(scheduler.now) })
        scheduler.run()
        XCTAssertEqual(ranAt.values, [.seconds(3)])
        recorder.assertEvents([(1, .next(1)), (3, .error(TestError(2)))])
    }
}
