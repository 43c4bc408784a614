import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// The predicate forms `take(untilTrue:)` and `skip(untilTrue:)`, after RACSignalSpec's `-takeUntilBlock:` and
/// `-skipUntilBlock:`.
final class PredicateTakeSkipTests: ResourceCheckedTestCase {
    func testTakeUntilBlockTakesUntilTheBlockIsSatisfied() {
        let source = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        source.signal.take(untilTrue: { $0 == 3 }).record(into: log)
        for value in 1...4 { source.send(value) }
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.disposals, 1)
    }

    func testTakeUntilBlockCompletesIfTheBlockIsNeverSatisfied() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2]).take(untilTrue: { _ in false }).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testSkipUntilBlockSkipsUntilTheBlockIsSatisfied() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2, 5, 1]).skip(untilTrue: { $0 > 3 }).record(into: log)
        XCTAssertEqual(log.events, [.next(5), .next(1), .completed])
    }

    func testSkipUntilBlockDoesNotSkipWhenTheBlockIsImmediatelySatisfied() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2]).skip(untilTrue: { _ in true }).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testSkipUntilBlockSkipsAllValuesWhenTheBlockIsNeverSatisfied() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2]).skip(untilTrue: { _ in false }).record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testPredicateFormsPassAlongErrors() {
        let took = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(1)).take(untilTrue: { _ in false }).record(into: took)
        XCTAssertEqual(took.events, [.error(TestError(1))])
        let skipped = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(1)).skip(untilTrue: { _ in false }).record(into: skipped)
        XCTAssertEqual(skipped.events, [.error(TestError(1))])
    }
}
