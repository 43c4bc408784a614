import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `logNext`, `logError` and `logCompleted`, after RACSignalSpec's `-log…` operators.
final class LogEventKindTests: ResourceCheckedTestCase {
    func testLogNextPrintsOnlyValuesInTheFormatOfLog() {
        let lines = EventLog<String, Never>()
        let log = EventLog<Int, Never>()
        Signal(values: [1, 2]).logNext("n", to: { lines.append(.next($0)) }).record(into: log)
        XCTAssertEqual(lines.values, ["n next(1)", "n next(2)"])
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testLogErrorPrintsOnlyTheError() {
        let lines = EventLog<String, Never>()
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1]).concat(Signal(error: TestError(3)))
            .logError(to: { lines.append(.next($0)) }).record(into: log)
        XCTAssertEqual(lines.values, ["\(Event<Int, TestError>.error(TestError(3)))"])
        XCTAssertEqual(log.events, [.next(1), .error(TestError(3))])
    }

    func testLogCompletedPrintsOnlyCompletion() {
        let lines = EventLog<String, Never>()
        Signal(values: [1, 2]).logCompleted("done", to: { lines.append(.next($0)) }).subscribe()
        XCTAssertEqual(lines.values, ["done completed"])
    }

    func testLogLinesMatchLog() {
        let all = EventLog<String, Never>()
        let split = EventLog<String, Never>()
        let source = Signal<Int, TestError>(values: [1]).concat(Signal(error: TestError(1)))
        source.log("p", to: { all.append(.next($0)) }).subscribe()
        source.logNext("p", to: { split.append(.next($0)) }).logError("p", to: { split.append(.next($0)) })
            .subscribe()
        XCTAssertEqual(all.values, split.values)
    }
}
