import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `map(to:)`, `Signal.concat(_:)`, the predicate forms `take(untilTrue:)` / `skip(untilTrue:)`, and
/// `logNext` / `logError` / `logCompleted`, after RACSignalSpec's `-mapReplace:`, `+concat:`,
/// `-takeUntilBlock:`, `-skipUntilBlock:` and the `-log…` operators.
final class ShorthandsTests: ResourceCheckedTestCase {
    // MARK: map(to:)

    func testMapToAlwaysSendsTheGivenValue() {
        let log = EventLog<String, TestError>()
        Signal<Int, TestError>(values: [1, 2, 3]).map(to: "x").record(into: log)
        XCTAssertEqual(log.events, [.next("x"), .next("x"), .next("x"), .completed])
    }

    func testMapToPassesAlongErrors() {
        let log = EventLog<String, TestError>()
        Signal<Int, TestError>(error: TestError(2)).map(to: "x").record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(2))])
    }

    func testMapWithATrailingClosureStillTransforms() {
        let log = EventLog<Int, Never>()
        Signal(values: [1, 2]).map { $0 * 10 }.record(into: log)
        XCTAssertEqual(log.values, [10, 20])
    }

    // MARK: Signal.concat(_:)

    func testConcatOfASequenceSendsEachSignalInOrder() {
        let log = EventLog<Int, TestError>()
        let signals: [Signal<Int, TestError>] = [Signal(values: [1, 2]), Signal(values: [3]), Signal(values: [4])]
        Signal.concat(signals).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .next(4), .completed])
    }

    func testConcatSubscribesToEachSignalOnlyAfterThePreviousCompleted() {
        let first = ProbeSource<Int, TestError>()
        let second = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        Signal.concat([first.signal, second.signal]).record(into: log)
        XCTAssertEqual(second.subscriptions, 0)
        first.send(1)
        first.sendCompleted()
        XCTAssertEqual(second.subscriptions, 1)
        second.send(2)
        second.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testConcatStopsAtTheFirstError() {
        let later = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        Signal.concat([Signal(values: [1]), Signal(error: TestError(5)), later.signal]).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .error(TestError(5))])
        XCTAssertEqual(later.subscriptions, 0)
    }

    func testConcatOfNoSignalsCompletesAtOnce() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>.concat([Signal<Int, Never>]()).record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testConcatOfManySynchronousSignalsDoesNotGrowTheStack() {
        let count = Counter()
        Signal.concat((0..<50_000).map { Signal<Int, Never>(value: $0) })
            .subscribe(next: { _ in count.increment() })
        XCTAssertEqual(count.value, 50_000)
    }

    // MARK: take(untilTrue:) / skip(untilTrue:): the predicate forms

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

    func testTakeUntilWithASignalStillMeansTheTriggerForm() {
        let trigger = Subject<Int, Never>()
        let source = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        source.take(until: trigger).record(into: log)
        source.send(1)
        trigger.send(0)
        XCTAssertEqual(log.events, [.next(1), .completed])
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

    // MARK: logNext / logError / logCompleted

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
