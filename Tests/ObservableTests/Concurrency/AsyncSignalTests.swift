import Foundation
import Observable
import Synchronization
import TetherTestSupport
import XCTest

final class AsyncSignalTests: XCTestCase {
    func testForAwaitReceivesEveryValueThenEndsOnCompletion() async {
        var received: [Int] = []
        for await value in Signal(values: [1, 2, 3]).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testIteratorSubscribesWhenMadeSoHotValuesSentBeforeTheFirstNextAreKept() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        let first = await iterator.next()
        let second = await iterator.next()
        let end = await iterator.next()
        let afterEnd = await iterator.next()
        XCTAssertEqual([first, second, end, afterEnd], [1, 2, nil, nil])
    }

    func testTypedFailureIsRethrownAfterTheBufferedValues() async {
        let failing = Signal<Int, TestError>(values: [1, 2]).concat(Signal(error: TestError(3)))
        var received: [Int] = []
        do {
            for try await value in failing.values {
                received.append(value)
            }
            XCTFail("the loop should have thrown")
        } catch {
            // `error` is statically a `TestError`: typed throws.
            let typed: TestError = error
            XCTAssertEqual(typed, TestError(3))
        }
        XCTAssertEqual(received, [1, 2])
    }

    func testFailureIsThrownOnceThenTheIteratorReturnsNil() async throws {
        let subject = Subject<Int, TestError>()
        var iterator = subject.values.makeAsyncIterator()
        subject.sendError(TestError(8))
        do {
            _ = try await iterator.next()
            XCTFail("next should have thrown")
        } catch {
            XCTAssertEqual(error, TestError(8))
        }
        let after = try await iterator.next()
        XCTAssertNil(after)
    }

    func testBreakingOutOfTheLoopDisposesTheSubscription() async {
        let probe = ProbeSource<Int, Never>()
        let source = Signal.merge([Signal(values: [1, 2, 3]), probe.signal])
        var received: [Int] = []
        for await value in source.values {
            received.append(value)
            if value == 2 { break }
        }
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(probe.disposals, 1)
    }

    func testDroppingTheIteratorDisposesTheSubscriptionAndReleasesItsResources() async {
        let probe = ProbeSource<Int, Never>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let source = Signal<Int, Never> { _ in
                AnyDisposable { _ = tracked }
            }
            var iterator = Signal.merge([probe.signal, source]).values.makeAsyncIterator()
            probe.send(5)
            let first = await iterator.next()
            XCTAssertEqual(first, 5)
            XCTAssertEqual(probe.disposals, 0)
        }
        XCTAssertEqual(probe.disposals, 1)
        XCTAssertNil(weakTracked)
    }

    func testCancellingTheConsumingTaskDisposesTheSubscriptionAndEndsTheLoop() async {
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let source = Signal<Int, Never> { observer in
            observer.send(1)
            subscribed.fulfill()
            return AnyDisposable { disposed.fulfill() }
        }
        let task = Task {
            var received: [Int] = []
            for await value in source.values {
                received.append(value)
            }
            return received
        }
        await fulfillment(of: [subscribed], timeout: 10)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 10)
        let received = await task.value
        XCTAssertTrue(received == [1] || received == [], "got \(received)")
    }

    func testCancellingTheConsumerEndsTheLoopWhileValuesKeepComing() async {
        let subject = Subject<Int, Never>()
        let waiting = expectation(description: "the consumer received its first value")
        let box = UncheckedBox(subject.values)
        let task = Task {
            var iterator = box.value.makeAsyncIterator()
            var received: [Int] = []
            while let value = await iterator.next() {
                received.append(value)
                waiting.fulfill()
            }
            return received
        }
        // Keep sending until the consumer has subscribed and received one value.
        let sender = Task {
            var value = 0
            while !Task.isCancelled {
                subject.send(value)
                value += 1
                await Task.yield()
            }
        }
        await fulfillment(of: [waiting], timeout: 10)
        sender.cancel()
        task.cancel()
        let received = await task.value
        XCTAssertFalse(received.isEmpty)
        XCTAssertTrue(zip(received, received.dropFirst()).allSatisfy { $1 == $0 + 1 }, "in order, without gaps")
    }

    /// Cancelling a consumer that waits while another thread delivers to it must not deadlock: the
    /// cancellation handler runs under the runtime's task-status lock, and the delivery in flight may be
    /// resuming that very task (found by the full-scale TSan run, where dispose — called from the handler —
    /// waited for that delivery). The race is narrow: this loop exercises it; the TSan run found it.
    func testCancellingAWaitingConsumerWhileAnotherThreadDeliversDoesNotDeadlock() {
        // Synchronous on purpose: the watchdog must not need the cooperative pool the deadlock would block.
        for round in 0..<30 {
            let subject = Subject<Int, Never>()
            let box = UncheckedBox(subject.values)
            let stop = Flag()
            let producer = Thread {
                var value = 0
                while !stop.isRaised {
                    subject.send(value)
                    value += 1
                }
            }
            let returned = DispatchSemaphore(value: 0)
            let consumer = Task {
                var iterator = box.value.makeAsyncIterator()
                while await iterator.next() != nil {}
                returned.signal()
            }
            producer.start()
            usleep(UInt32(round % 20) * 5)
            consumer.cancel()
            let timedOut = returned.wait(timeout: .now() + 30) == .timedOut
            stop.raise()
            if timedOut {
                XCTFail("the cancelled consumer did not return within 30 s: deadlock (round \(round))")
                return
            }
        }
    }

    func testAlreadyCancelledTaskGetsNilAtOnceAndDisposes() async {
        let probe = ProbeSource<Int, Never>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = probe.signal.values.makeAsyncIterator()
            return await iterator.next()
        }
        let value = await task.value
        XCTAssertNil(value)
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(probe.disposals, 1)
    }

    func testEachIteratorIsItsOwnSubscription() async {
        let probe = ProbeSource<Int, Never>()
        let sequence = probe.signal.values
        var first = sequence.makeAsyncIterator()
        var second = sequence.makeAsyncIterator()
        XCTAssertEqual(probe.subscriptions, 2)
        probe.send(7)  // the latest subscription only
        probe.sendCompleted()
        let secondValue = await second.next()
        let secondEnd = await second.next()
        XCTAssertEqual([secondValue, secondEnd], [7, nil])
        _ = first
        first = sequence.makeAsyncIterator()
        XCTAssertEqual(probe.subscriptions, 3)
        XCTAssertEqual(probe.disposals, 2, "replacing the first iterator disposed its subscription")
    }

    func testUnboundedPolicyKeepsEveryValue() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        for value in 0..<1000 { subject.send(value) }
        subject.sendCompleted()
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, Array(0..<1000))
    }

    func testBufferingNewestKeepsTheLatestValues() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values(bufferingPolicy: .bufferingNewest(2)).makeAsyncIterator()
        for value in 1...5 { subject.send(value) }
        subject.sendCompleted()
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, [4, 5])
    }

    func testBufferingOldestKeepsTheFirstValuesAndDropsLaterOnes() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values(bufferingPolicy: .bufferingOldest(2)).makeAsyncIterator()
        for value in 1...5 { subject.send(value) }
        let first = await iterator.next()
        subject.send(6)  // room for one again
        subject.sendCompleted()
        var received = [first]
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, [1, 2, 6])
    }

    func testBufferingNewestZeroDropsValuesNobodyWaitsForButNotTheTerminalEvent() async {
        let subject = Subject<Int, TestError>()
        var iterator = subject.values(bufferingPolicy: .bufferingNewest(0)).makeAsyncIterator()
        subject.send(1)
        subject.sendError(TestError(2))
        do {
            let value = try await iterator.next()
            XCTFail("expected the error, got \(String(describing: value))")
        } catch {
            XCTAssertEqual(error, TestError(2))
        }
    }

    func testBehaviorSubjectValuesStartWithTheCurrentValue() async {
        let subject = BehaviorSubject<String, Never>(value: "a")
        var iterator = subject.values.makeAsyncIterator()
        subject.send("b")
        let first = await iterator.next()
        let second = await iterator.next()
        XCTAssertEqual([first, second], ["a", "b"])
    }

    func testValuesSentFromManyThreadsAllArriveAndEachThreadsOrderIsKept() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        let threads = 4
        let perThread = 2_000
        let producer = Thread {
            runThreads(threads) { thread in
                for index in 0..<perThread { subject.send(thread * perThread + index) }
            }
            subject.sendCompleted()
        }
        producer.start()
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received.count, threads * perThread)
        XCTAssertEqual(Set(received).count, threads * perThread)
        for thread in 0..<threads {
            let mine = received.filter { $0 / perThread == thread }
            XCTAssertEqual(mine, mine.sorted(), "thread \(thread)'s values in order")
        }
    }

    /// One thread sends, pausing before each value for a time that sweeps across the consumer's way from
    /// one `next` into the `await` of the following one, so some values resume the continuation before the
    /// consumer's task reached its `await`. On that path the concurrency runtime orders the two threads out
    /// of Thread Sanitizer's sight; under Thread Sanitizer this test reports a race unless
    /// `AsyncSignalStorage` supplies the acquire.
    func testValuesSentJustAsTheConsumerStartsWaitingAllArriveInOrder() async {
        let count = 8_000
        let subject = Subject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        let producer = startThread {
            let spin = Atomic<Int>(0)
            for value in 0..<count {
                for _ in 0..<(value % 64) * 40 { spin.add(1, ordering: .relaxed) }
                subject.send(value)
            }
            subject.sendCompleted()
        }
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, Array(0..<count))
        _ = waitOrFail(producer, "the producer's completion")
    }

    @MainActor
    func testIterationResumesOnTheCallersActor() async {
        let subject = Subject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        let producer = Thread {
            for value in 0..<100 { subject.send(value) }
            subject.sendCompleted()
        }
        producer.start()
        var count = 0
        while await iterator.next() != nil {
            MainActor.assertIsolated()
            count += 1
        }
        XCTAssertEqual(count, 100)
    }
}
