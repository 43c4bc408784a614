import Foundation
import Observable
import TetherTestSupport
import XCTest

/// An async sequence with a typed failure, for checking that `Signal(_:)` keeps the type.
private struct FailingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let values: [Int]
    let failure: TestError

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: [Int]
        let failure: TestError

        mutating func next() async throws(TestError) -> Int? {
            if remaining.isEmpty { throw failure }
            return remaining.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: values, failure: failure) }
}

final class SignalFromAsyncSequenceTests: XCTestCase {
    func testSendsTheElementsThenCompletes() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        let signal: Signal<Int, Never> = Signal(stream)
        var received: [Int] = []
        for await value in signal.values { received.append(value) }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testTypedFailureOfTheSequenceBecomesTheSignalsFailure() async {
        let signal = Signal(FailingSequence(values: [1, 2], failure: TestError(5)))  // Signal<Int, TestError>
        let log = EventLog<Int, TestError>()
        let done = expectation(description: "terminated")
        signal.subscribeEvents { event in
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(log.events, [.next(1), .next(2), .error(TestError(5))])
    }

    func testUntypedThrowingSequenceGivesAnyError() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.finish(throwing: TestError(6))
        let signal: Signal<Int, any Error> = Signal(stream)
        var received: [Int] = []
        do {
            for try await value in signal.values { received.append(value) }
            XCTFail("should have thrown")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(6))
        }
        XCTAssertEqual(received, [1])
    }

    func testDisposingCancelsTheIteratingTaskAndStopsDelivery() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let terminated = expectation(description: "the stream's iterating task was cancelled")
        continuation.onTermination = { reason in
            if case .cancelled = reason { terminated.fulfill() }
        }
        let first = expectation(description: "first value")
        let log = EventLog<Int, Never>()
        let subscription = Signal(stream).subscribeEvents { event in
            log.append(event)
            first.fulfill()
        }
        continuation.yield(1)
        await fulfillment(of: [first], timeout: 10)
        subscription.dispose()
        continuation.yield(2)
        await fulfillment(of: [terminated], timeout: 10)
        XCTAssertEqual(log.events, [.next(1)])
    }

    func testEachSubscriptionIteratesTheSequenceAnew() async {
        let sequence = FailingSequence(values: [1], failure: TestError(1))
        let signal = Signal(sequence)
        let first = EventLog<Int, TestError>()
        let second = EventLog<Int, TestError>()
        let done = expectation(description: "both terminated")
        done.expectedFulfillmentCount = 2
        signal.subscribeEvents { event in
            first.append(event)
            if event.isTerminal { done.fulfill() }
        }
        signal.subscribeEvents { event in
            second.append(event)
            if event.isTerminal { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(first.events, [.next(1), .error(TestError(1))])
        XCTAssertEqual(second.events, first.events)
    }
}

final class SignalFromAsyncFunctionTests: XCTestCase {
    func testSendsTheResultThenCompletes() async {
        @Sendable func compute() async -> Int { 42 }
        let signal = Signal<Int, Never> { await compute() }
        var received: [Int] = []
        for await value in signal.values { received.append(value) }
        XCTAssertEqual(received, [42])
    }

    func testTypedThrowingFunctionFailsWithItsError() async {
        let signal = Signal<Int, TestError> { () async throws(TestError) -> Int in throw TestError(4) }
        var iterator = signal.values.makeAsyncIterator()
        do {
            _ = try await iterator.next()
            XCTFail("should have thrown")
        } catch {
            XCTAssertEqual(error, TestError(4))
        }
    }

    func testUntypedThrowingFunctionGivesAnyError() async {
        @Sendable func fetch() async throws -> String { throw TestError(9) }
        let signal = Signal<String, any Error> { try await fetch() }
        let log = EventLog<String, any Error>()
        let done = expectation(description: "terminated")
        signal.subscribeEvents { event in
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.events.first?.error as? TestError, TestError(9))
    }

    func testRecipeClosuresStillMeanCreateSignal() {
        // Overload resolution: a closure taking the observer is the synchronous recipe.
        let signal = Signal<Int, Never> { observer in
            observer.send(1)
            observer.sendCompleted()
            return nil
        }
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testDisposingCancelsTheTaskAndDropsItsResult() async {
        let (never, _) = AsyncStream.makeStream(of: Int.self)
        let started = expectation(description: "started")
        let cancelled = expectation(description: "cancelled")
        let box = UncheckedBox(never)
        let signal = Signal<Int, Never> {
            started.fulfill()
            for await _ in box.value {}  // ends only when the task is cancelled
            cancelled.fulfill()
            return 1
        }
        let log = EventLog<Int, Never>()
        let subscription = signal.record(into: log)
        await fulfillment(of: [started], timeout: 10)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 10)
        XCTAssertEqual(log.events, [])
    }

    func testEachSubscriptionRunsTheFunctionAgain() async {
        let runs = Counter()
        let signal = Signal<Int, Never> {
            runs.increment()
            return runs.value
        }
        var results: [Int] = []
        for await value in signal.values { results.append(value) }
        for await value in signal.values { results.append(value) }
        XCTAssertEqual(results, [1, 2])
        XCTAssertEqual(runs.value, 2)
    }
}

private func fetchAnswer() async -> Int { 42 }

final class SignalFromAsyncInferenceTests: XCTestCase {
    func testBareAsyncClosureBuildsAnAsyncSignalNotAOneValueSignalOfAClosure() async {
        // Without a type annotation this must infer Signal<Int, Never> from the async initializer
        // (`Signal(value:)` is disfavoured); otherwise the assignment below does not compile.
        let signal = Signal { await fetchAnswer() }
        let typed: Signal<Int, Never> = signal
        var received: [Int] = []
        for await value in typed.values { received.append(value) }
        XCTAssertEqual(received, [42])
    }
}
