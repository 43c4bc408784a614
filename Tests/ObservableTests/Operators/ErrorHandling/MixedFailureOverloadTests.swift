import Observable
import TetherTestSupport
import XCTest

/// The overloads that let RAC idioms mix failing and non-failing signals in their natural spelling
/// (issue 16's "typed failures get in the way" trap), each checked against RAC's meaning.
final class MixedFailureOverloadTests: XCTestCase {
    // The tutorials' live search: `requestAccess.then { searchText }`, where only the first can fail.
    func testThenFromAFailingSignalToANeverFailingOneSendsTheNextValuesAfterCompletion() {
        let requestAccess = Subject<Void, TestError>()
        let searchText = MutableProperty("ra")
        let log = EventLog<String, TestError>()
        requestAccess.then { searchText }.record(into: log)
        searchText.value = "rac"
        XCTAssertEqual(log.count, 0, "nothing before access is granted")
        requestAccess.send(())
        requestAccess.sendCompleted()
        searchText.value = "racs"
        XCTAssertEqual(log.values, ["rac", "racs"])
    }

    func testThenFromAFailingSignalForwardsItsErrorAndNeverStartsTheNextOne() {
        let requestAccess = Subject<Void, TestError>()
        let started = Counter()
        let log = EventLog<Int, TestError>()
        requestAccess.then { () -> Signal<Int, Never> in
            started.increment()
            return Signal(value: 1)
        }.record(into: log)
        requestAccess.sendError(TestError(3))
        XCTAssertEqual(started.value, 0)
        XCTAssertEqual(log.events.count, 1)
        XCTAssertEqual(log.events.first?.error, TestError(3))
    }

    func testThenFromANeverFailingSignalToAFailingOneForwardsTheNextOnesError() {
        let confirmed = Subject<Void, Never>()
        let log = EventLog<Int, TestError>()
        confirmed.then {
            Signal<Int, TestError> { observer in
                observer.send(1)
                observer.sendError(TestError(4))
                return nil
            }
        }.record(into: log)
        confirmed.sendCompleted()
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(log.events.last?.error, TestError(4))
    }

    func testFlatMapOfAFailingSignalIntoNeverFailingInnersMergesAndForwardsTheOuterError() {
        let pages = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        pages.flatMap { page in Signal(values: [page * 10, page * 10 + 1]) }.record(into: log)
        pages.send(1)
        pages.send(2)
        pages.sendError(TestError(5))
        XCTAssertEqual(log.values, [10, 11, 20, 21])
        XCTAssertEqual(log.events.last?.error, TestError(5))
    }

    func testFlatMapOfANeverFailingSignalIntoFailingInnersFailsWithTheInnerError() {
        let query = Subject<String, Never>()
        let log = EventLog<String, TestError>()
        query.flatMap { text -> Signal<String, TestError> in
            text.isEmpty ? Signal(error: TestError(6)) : Signal(value: text.uppercased())
        }.record(into: log)
        query.send("rac")
        query.send("")
        query.send("late")
        XCTAssertEqual(log.values, ["RAC"])
        XCTAssertEqual(log.events.last?.error, TestError(6))
        XCTAssertEqual(log.events.count, 2)
    }

    func testCatchReturningEmptyEndsQuietlyInsteadOfFailing() {
        let load = Subject<Int, TestError>()
        let log = EventLog<Int, Never>()
        load.catch { _ in .empty }.record(into: log)
        load.send(1)
        load.sendError(TestError())
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(log.events.count, 2)
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testCatchReturningAValueReplacesTheErrorWithIt() {
        let load = Signal<String, TestError>(error: TestError(2))
        let log = EventLog<String, Never>()
        load.catch { error in Signal(value: "fallback \(error.code)") }.record(into: log)
        XCTAssertEqual(log.values, ["fallback 2"])
    }

    func testTimeoutOnANeverFailingSignalFailsWithTheGivenErrorWhenNothingEndsIt() {
        let scheduler = TestScheduler()
        let reply = Subject<String, Never>()
        let log = EventLog<String, TestError>()
        reply.timeout(after: .seconds(5), raising: TestError(9), on: scheduler).record(into: log)
        reply.send("partial")
        scheduler.advance(by: .milliseconds(4_999))
        XCTAssertEqual(log.events.count, 1)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(log.values, ["partial"])
        XCTAssertEqual(log.events.last?.error, TestError(9))
    }

    func testTimeoutOnANeverFailingSignalCompletesNormallyWhenItEndsInTime() {
        let scheduler = TestScheduler()
        let reply = Subject<String, Never>()
        let log = EventLog<String, TestError>()
        reply.timeout(after: .seconds(5), raising: TestError(9), on: scheduler).record(into: log)
        scheduler.advance(by: .seconds(1))
        reply.send("done")
        reply.sendCompleted()
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(log.values, ["done"])
        XCTAssertEqual(log.events.count, 2)
        XCTAssertNil(log.events.last?.error)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}
