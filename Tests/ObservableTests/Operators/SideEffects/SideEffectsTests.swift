import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class SideEffectsTests: ResourceCheckedTestCase {
    func testDoNextRunsBeforeEachValueIsSentOn() {
        let trace = Locked<[String]>([])
        let subject = Subject<Int, TestError>()
        subject.doNext { trace.append("do \($0)") }.subscribe(
            next: { trace.append("next \($0)") }, error: { _ in trace.append("error") })
        subject.send(1)
        subject.send(2)
        subject.sendError(TestError())
        XCTAssertEqual(trace.values, ["do 1", "next 1", "do 2", "next 2", "error"])
    }

    func testDoErrorRunsBeforeTheErrorIsSentOnAndNotOnCompletion() {
        let trace = Locked<[String]>([])
        let subject = Subject<Int, TestError>()
        subject.doError { trace.append("do \($0.code)") }.subscribe(
            next: { trace.append("next \($0)") }, error: { trace.append("error \($0.code)") })
        subject.send(1)
        subject.sendError(TestError(5))
        XCTAssertEqual(trace.values, ["next 1", "do 5", "error 5"])

        let called = Flag()
        Signal<Int, TestError>(values: [1]).doError { _ in called.raise() }.subscribe()
        XCTAssertFalse(called.isRaised)
    }

    func testDoCompletedRunsBeforeCompletionIsSentOnAndNotOnError() {
        let trace = Locked<[String]>([])
        Signal<Int, Never>(values: [1]).doCompleted { trace.append("do") }.subscribe(
            next: { trace.append("next \($0)") }, completed: { trace.append("completed") })
        XCTAssertEqual(trace.values, ["next 1", "do", "completed"])

        let called = Flag()
        Signal<Int, TestError>(error: TestError()).doCompleted { called.raise() }.subscribe()
        XCTAssertFalse(called.isRaised)
    }

    func testSideEffectsDisposeTheSource() {
        assertDisposesSource { $0.doNext { _ in } }
        assertDisposesSource { $0.doError { _ in } }
        assertDisposesSource { $0.doCompleted {} }
        assertDisposesSource { $0.log(to: { _ in }) }
    }

    func testSideEffectsReleaseTheirClosures() {
        assertReleasesCapture(ending: .complete) { tracked, s in s.doNext { _ in _ = tracked } }
        assertReleasesCapture(ending: .complete) { tracked, s in s.doError { _ in _ = tracked } }
        assertReleasesCapture(ending: .complete) { tracked, s in s.doCompleted { _ = tracked } }
        assertReleasesCapture(ending: .complete) { tracked, s in s.log(to: { _ in _ = tracked }) }
    }

    func testLogWritesEveryEventWithThePrefix() {
        let lines = Locked<[String]>([])
        let log = EventLog<Int, TestError>()
        let subject = Subject<Int, TestError>()
        subject.log("numbers", to: { lines.append($0) }).record(into: log)
        subject.send(1)
        subject.sendError(TestError(2))
        XCTAssertEqual(lines.values, ["numbers next(1)", "numbers error(TestError(code: 2))"])
        XCTAssertEqual(log.events, [.next(1), .error(TestError(2))])
    }

    func testLogWithoutPrefixWritesTheBareEvent() {
        let lines = Locked<[String]>([])
        Signal<Int, Never>(values: [7]).log(to: { lines.append($0) }).subscribe()
        XCTAssertEqual(lines.values, ["next(7)", "completed"])
    }
}
