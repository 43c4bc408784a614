import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `catch(_:)` applied to a signal that `catch(_:)` made, with replacements failing as their upstream
/// does: the chain runs as one list of handlers.
final class CatchChainTests: ResourceCheckedTestCase {
    func testEachCatchOfAChainReplacesTheErrorOfTheSignalBeforeIt() {
        let caught = Locked<[String]>([])
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(value: 0).concat(Signal(error: TestError(1)))
            .catch { error in
                caught.append("first caught \(error.code)")
                return Signal(value: 10).concat(Signal(error: TestError(2)))
            }
            .catch { error in
                caught.append("second caught \(error.code)")
                return Signal(value: 20).concat(Signal(error: TestError(3)))
            }
            .record(into: log)
        XCTAssertEqual(log.events, [.next(0), .next(10), .next(20), .error(TestError(3))])
        XCTAssertEqual(caught.values, ["first caught 1", "second caught 2"])
    }

    func testAChainOfCatchesCompletesWhenAReplacementCompletesAndCallsNoLaterHandler() {
        let laterCalls = Counter()
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(1))
            .catch { _ in Signal<Int, TestError>(value: 5) }
            .catch { _ -> Signal<Int, TestError> in
                laterCalls.increment()
                return .empty
            }
            .record(into: log)
        XCTAssertEqual(log.events, [.next(5), .completed])
        XCTAssertEqual(laterCalls.value, 0)
    }

    func testAChainOfCatchesAfterOneThatChangesTheFailureTypeReplacesEachError() {
        struct Other: Error, Equatable { let code: Int }
        let log = EventLog<Int, Other>()
        Signal<Int, TestError>(error: TestError(1))
            .catch { error in Signal<Int, Other>(error: Other(code: error.code + 1)) }
            .catch { error in Signal<Int, Other>(value: error.code).concat(Signal(error: Other(code: 9))) }
            .catch { error in Signal<Int, Other>(value: error.code) }
            .record(into: log)
        XCTAssertEqual(log.events, [.next(2), .next(9), .completed])
    }

    func testDisposingAChainOfCatchesDisposesTheRunningReplacementAndCallsNoLaterHandler() {
        let running = ProbeSource<Int, TestError>()
        let laterCalls = Counter()
        let subscription = Signal<Int, TestError>(error: TestError(1))
            .catch { _ in running.signal }
            .catch { _ -> Signal<Int, TestError> in
                laterCalls.increment()
                return .empty
            }
            .subscribe()
        XCTAssertEqual(running.subscriptions, 1)
        subscription.dispose()
        XCTAssertEqual(running.disposals, 1)
        running.sendError(TestError(2))
        XCTAssertEqual(laterCalls.value, 0)
    }

    func testExtendingAChainOfCatchesLeavesTheChainItExtendedUnchanged() {
        let prefix = Signal<Int, TestError>(error: TestError(1)).catch { error in
            Signal<Int, TestError>(value: error.code).concat(Signal(error: TestError(2)))
        }
        let recovered = prefix.catch { error in Signal<Int, TestError>(value: error.code * 10) }
        XCTAssertEqual(events(of: prefix), [.next(1), .error(TestError(2))])
        XCTAssertEqual(events(of: recovered), [.next(1), .next(20), .completed])
        XCTAssertEqual(events(of: prefix), [.next(1), .error(TestError(2))], "the chain it extended is unchanged")
    }

    func testAValueOfTheSourceOfAThousandCatchesCrossesAsFewStagesAsInOneCatch() {
        // See `ConcatChainTests`: a value crossing one stage per `catch` would arrive a thousand stages deeper.
        // (Later values arrive deeper in both: each replacement starts inside the error before it.)
        let failing = Signal<Int, TestError>(value: 0).concat(Signal(error: TestError()))
        let one = depthOfFirstValue(in: failing.catch { _ in Signal<Int, TestError>(value: 1) })
        var chain = failing
        for index in 1...1_000 {
            chain = chain.catch { _ in Signal<Int, TestError>(value: index).concat(Signal(error: TestError())) }
        }
        let thousand = depthOfFirstValue(in: chain.catch { _ in Signal<Int, TestError>(value: -1) })
        XCTAssertLessThanOrEqual(thousand, one + 8, "stack depth \(thousand), against \(one) for one catch")
    }

    func testMappingAChainOfCatchesForAValuesOnlySubscriberMapsEveryValue() {
        // `map` joins a plain subject's signal directly; a chain's signal must not be taken for one.
        let chain = Signal<Int, TestError>(value: 1).concat(Signal(error: TestError(2)))
            .catch { error in Signal<Int, TestError>(value: error.code).concat(Signal(error: TestError(3))) }
            .catch { error in Signal<Int, TestError>(value: error.code) }
        var received: [Int] = []
        chain.map { $0 * 10 }.subscribe(next: { received.append($0) })
        chain.named("chain").map { $0 * 10 }.subscribe(next: { received.append($0) })
        XCTAssertEqual(received, [10, 20, 30, 10, 20, 30])
    }

    func testAChainOfCatchesWhoseSourceCompletesCallsNoHandler() {
        let calls = Counter()
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2])
            .catch { _ -> Signal<Int, TestError> in
                calls.increment()
                return .empty
            }
            .catch { _ -> Signal<Int, TestError> in
                calls.increment()
                return .empty
            }
            .record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(calls.value, 0)
    }

    private func events(of signal: Signal<Int, TestError>) -> [Event<Int, TestError>] {
        let log = EventLog<Int, TestError>()
        signal.record(into: log)
        return log.events
    }

    /// How deep the stack is under the subscriber's callback for the first value `signal` sends.
    private func depthOfFirstValue(in signal: Signal<Int, TestError>) -> Int {
        var depth: Int?
        signal.subscribe(next: { _ in if depth == nil { depth = Thread.callStackReturnAddresses.count } })
        return depth ?? .max
    }
}
