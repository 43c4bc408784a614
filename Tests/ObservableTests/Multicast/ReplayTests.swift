import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class ReplayTests: ResourceCheckedTestCase {
    // MARK: replay

    func testReplaySubscribesToTheSourceAtOnceAndOnlyOnce() {
        expectLiveSubscriptions("the source probe keeps its observer: the replay never ends")
        let probe = ProbeSource<Int, Never>()
        let replayed = probe.signal.replay()
        XCTAssertEqual(probe.subscriptions, 1)
        replayed.subscribe()
        replayed.subscribe()
        XCTAssertEqual(probe.subscriptions, 1)
    }

    func testReplayReplaysEveryValueAndTheTerminalEventToLateSubscribers() {
        let source = Subject<Int, Never>()
        let replayed = source.replay()
        source.send(1)
        let early = EventLog<Int, Never>()
        replayed.record(into: early)
        source.send(2)
        source.sendCompleted()
        let late = EventLog<Int, Never>()
        replayed.record(into: late)
        XCTAssertEqual(early.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(late.events, [.next(1), .next(2), .completed])
    }

    func testReplayReplaysTheSourcesError() {
        let replayed = Signal<Int, TestError> { observer in
            observer.send(1)
            observer.sendError(TestError(7))
            return nil
        }.replay()
        let events = EventLog<Int, TestError>()
        replayed.record(into: events)
        XCTAssertEqual(events.events, [.next(1), .error(TestError(7))])
    }

    func testDisposingAReplaySubscriberDoesNotStopTheSource() {
        expectLiveSubscriptions("the source probe keeps its observer: the replay never ends")
        let probe = ProbeSource<Int, Never>()
        let replayed = probe.signal.replay()
        replayed.subscribe().dispose()
        XCTAssertEqual(probe.disposals, 0)
        probe.send(1)
        let events = EventLog<Int, Never>()
        replayed.record(into: events)
        XCTAssertEqual(events.values, [1])
    }

    func testReplaySubscriberClosuresAreReleasedWhenTheSourceCompletes() {
        weak var weakTracked: Tracked?
        let source = Subject<Int, Never>()
        let replayed = source.replay()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            replayed.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        source.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    // MARK: replayLast

    func testReplayLastReplaysOnlyTheLatestValue() {
        expectLiveSubscriptions("the source probe keeps its observer: the replay never ends")
        let probe = ProbeSource<Int, Never>()
        let replayed = probe.signal.replayLast()
        XCTAssertEqual(probe.subscriptions, 1)
        for value in 1...3 { probe.send(value) }
        let late = EventLog<Int, Never>()
        replayed.record(into: late)
        probe.send(4)
        XCTAssertEqual(late.values, [3, 4])
    }

    func testReplayLastReplaysTheLatestValueAndTheTerminalEventAfterCompletion() {
        let replayed = Signal<Int, Never>(values: [1, 2, 3]).replayLast()
        let events = EventLog<Int, Never>()
        replayed.record(into: events)
        XCTAssertEqual(events.events, [.next(3), .completed])
    }

    // MARK: replayLazily

    func testReplayLazilySubscribesOnTheFirstSubscriptionOnly() {
        expectLiveSubscriptions("the source probe keeps its observer: the replay never ends")
        let probe = ProbeSource<Int, Never>()
        let replayed = probe.signal.replayLazily()
        XCTAssertEqual(probe.subscriptions, 0)
        let first = EventLog<Int, Never>()
        replayed.record(into: first)
        XCTAssertEqual(probe.subscriptions, 1)
        probe.send(1)
        let second = EventLog<Int, Never>()
        replayed.record(into: second)
        probe.send(2)
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(first.values, [1, 2])
        XCTAssertEqual(second.values, [1, 2])
    }

    func testReplayLazilyNeverDisconnects() {
        expectLiveSubscriptions("the source probe keeps its observer: the replay never ends")
        let probe = ProbeSource<Int, Never>()
        let replayed = probe.signal.replayLazily()
        replayed.subscribe().dispose()
        XCTAssertEqual(probe.disposals, 0)
        probe.send(1)
        let late = EventLog<Int, Never>()
        replayed.record(into: late)
        XCTAssertEqual(late.values, [1])
        XCTAssertEqual(probe.subscriptions, 1)
    }

    func testReplayLazilyGivesTheFirstSubscriberValuesSentWhileConnecting() {
        let replayed = Signal<Int, Never>(values: 0..<5).replayLazily()
        let first = EventLog<Int, Never>()
        replayed.record(into: first)
        let second = EventLog<Int, Never>()
        replayed.record(into: second)
        let expected: [Event<Int, Never>] = (0..<5).map { .next($0) } + [.completed]
        XCTAssertEqual(first.events, expected)
        XCTAssertEqual(second.events, expected)
    }

    func testReplayLazilyConnectsExactlyOnceForManyConcurrentFirstSubscribers() {
        for round in 0..<100 {
            let subscriptions = Counter()
            let source = Signal<Int, Never> { observer in
                subscriptions.increment()
                for value in 0..<10 { observer.send(value) }
                observer.sendCompleted()
                return nil
            }
            let replayed = UncheckedBox(source.replayLazily())
            let logs = (0..<32).map { _ in EventLog<Int, Never>() }
            runThreads(32) { index in
                replayed.value.record(into: logs[index])
            }
            XCTAssertEqual(subscriptions.value, 1, "round \(round)")
            let expected: [Event<Int, Never>] = (0..<10).map { .next($0) } + [.completed]
            for log in logs where log.events != expected {
                XCTFail("round \(round): a subscriber received \(log.events)")
                break
            }
        }
    }

    // MARK: Concurrency

    func testReplayLosesNoValueSentWhileSubscribersJoin() {
        let count = 5_000
        let source = Subject<Int, Never>()
        let replayed = UncheckedBox(source.replay())
        let logs = (0..<8).map { _ in EventLog<Int, Never>() }
        runThreads(9) { index in
            if index == 8 {
                for value in 0..<count { source.send(value) }
                source.sendCompleted()
            } else {
                replayed.value.record(into: logs[index])
            }
        }
        let expected: [Event<Int, Never>] = (0..<count).map { .next($0) } + [.completed]
        for (index, log) in logs.enumerated() {
            XCTAssertEqual(log.count, count + 1, "subscriber \(index)")
            XCTAssertTrue(log.events == expected, "subscriber \(index) lost, repeated or reordered values")
        }
    }

    func testAReplayedValueIsDeliveredWithoutHoldingALock() {
        // While a replayed value is being delivered, another thread can subscribe and connect: had
        // the replay held a lock around the callback, that thread would block on it.
        let replayed = Signal<Int, Never>(values: [1, 2, 3]).replayLazily()
        let box = UncheckedBox(replayed)
        let otherThreadFinished = EventLog<Bool, Never>()
        let second = EventLog<Int, Never>()
        replayed.subscribe(next: { value in
            guard value == 1 else { return }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                box.value.record(into: second)
                done.signal()
            }
            otherThreadFinished.append(.next(done.wait(timeout: .now() + 10) == .success))
        })
        XCTAssertEqual(otherThreadFinished.values, [true])
        // The other thread's subscription was queued behind the running replay, then served.
        XCTAssertEqual(second.events, [.next(1), .next(2), .next(3), .completed])
    }
}
