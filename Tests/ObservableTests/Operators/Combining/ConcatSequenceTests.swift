import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `Signal.concat(_:)` of a sequence of signals, after RACSignalSpec's `+concat:`.
final class ConcatSequenceTests: ResourceCheckedTestCase {
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
}
