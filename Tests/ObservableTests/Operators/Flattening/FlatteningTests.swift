import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// Builds `flatMap`, `flatMapLatest` or `concatMap`, so a test can run against all three.
private enum Strategy: CaseIterable {
    case merge, latest, concat

    func apply<S: SignalConvertible, Inner: SignalConvertible>(
        _ source: S, _ transform: @escaping @Sendable (S.Value) -> Inner
    ) -> Signal<Inner.Value, S.Failure> where Inner.Failure == S.Failure {
        switch self {
        case .merge: return source.flatMap(transform)
        case .latest: return source.flatMapLatest(transform)
        case .concat: return source.concatMap(transform)
        }
    }
}

/// The marble scenario of the doc comments: source `-a---b----|`, a `-1--2|`, b `-3-4|`
/// (times in seconds).
private func marbleScenario(
    _ strategy: Strategy,
    outer outerEvents: [(Int, Event<String, TestError>)] = [
        (1, .next("a")), (5, .next("b")), (10, .completed),
    ]
) -> (TestScheduler, VirtualTimeSignal<Int>, VirtualTimeSignal<Int>, VirtualTimeRecorder<Int, TestError>) {
    let scheduler = TestScheduler()
    let outer = VirtualTimeSignal<String>(scheduler, outerEvents)
    let a = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (4, .next(2)), (5, .completed)])
    let b = VirtualTimeSignal<Int>(scheduler, [(1, .next(3)), (3, .next(4)), (4, .completed)])
    let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
    recorder.record(strategy.apply(outer.signal) { $0 == "a" ? a.signal : b.signal })
    return (scheduler, a, b, recorder)
}

final class FlatteningTests: ResourceCheckedTestCase {
    // MARK: flatMap (merge)

    func testFlatMapMergesInnerValuesAsTheyArrive() {
        let (scheduler, a, b, recorder) = marbleScenario(.merge)
        scheduler.run()
        recorder.assertEvents([(2, .next(1)), (5, .next(2)), (6, .next(3)), (8, .next(4)), (10, .completed)])
        XCTAssertEqual(a.disposals.value, 1)
        XCTAssertEqual(b.disposals.value, 1)
    }

    func testFlatMapWaitsForEveryLiveInnerAfterTheOuterCompletes() {
        let outer = Subject<Int, TestError>()
        let inners = [Subject<Int, TestError>(), Subject<Int, TestError>()]
        let log = EventLog<Int, TestError>()
        outer.flatMap { inners[$0] }.record(into: log)
        outer.send(0)
        outer.send(1)
        outer.sendCompleted()
        inners[0].send(10)
        inners[0].sendCompleted()
        XCTAssertEqual(log.events, [.next(10)])
        inners[1].send(11)
        inners[1].sendCompleted()
        XCTAssertEqual(log.events, [.next(10), .next(11), .completed])
    }

    func testFlatMapOfEmptyInputsCompletes() {
        let emptyOuter = EventLog<Int, TestError>()
        Signal<Int, TestError>.empty.flatMap { Signal<Int, TestError>(value: $0) }.record(into: emptyOuter)
        XCTAssertEqual(emptyOuter.events, [.completed])

        let emptyInners = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2]).flatMap { _ in Signal<Int, TestError>.empty }
            .record(into: emptyInners)
        XCTAssertEqual(emptyInners.events, [.completed])
    }

    func testFlatMapOfManySynchronousInnersKeepsEveryValueInOrder() {
        let log = EventLog<[Int], Never>()
        Signal<Int, Never>(values: 0..<1000).flatMap { Signal<Int, Never>(values: [$0]) }.collect()
            .record(into: log)
        XCTAssertEqual(log.events, [.next(Array(0..<1000)), .completed])
    }

    func testFlatMapInnerErrorFailsAndDisposesTheOuterAndTheOtherInners() {
        let outer = SubscriptionProbe()
        let inners = [SubscriptionProbe(), SubscriptionProbe()]
        let log = EventLog<Int, TestError>()
        outer.signal.flatMap { inners[$0].signal }.record(into: log)
        outer.observer?.send(0)
        outer.observer?.send(1)
        inners[1].observer?.send(5)
        inners[0].observer?.sendError(TestError(3))
        inners[1].observer?.send(6)
        XCTAssertEqual(log.events, [.next(5), .error(TestError(3))])
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inners[0].disposals.value, 1)
        XCTAssertEqual(inners[1].disposals.value, 1)
    }

    func testFlatMapOuterErrorFailsAndDisposesTheInners() {
        let outer = Subject<Int, TestError>()
        let inner = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        outer.flatMap { _ in inner.signal }.record(into: log)
        outer.send(0)
        outer.sendError(TestError(2))
        inner.observer?.send(1)
        XCTAssertEqual(log.events, [.error(TestError(2))])
        XCTAssertEqual(inner.disposals.value, 1)
    }

    func testFlatMapDisposalDisposesTheOuterAndEveryInner() {
        let outer = SubscriptionProbe()
        let inners = [SubscriptionProbe(), SubscriptionProbe(), SubscriptionProbe()]
        let subscription = outer.signal.flatMap { inners[$0].signal }.subscribe()
        for index in inners.indices { outer.observer?.send(index) }
        XCTAssertEqual(inners.map(\.subscriptions.value), [1, 1, 1])
        subscription.dispose()
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inners.map(\.disposals.value), [1, 1, 1])
    }

    func testFlattenMergesASignalOfSignals() {
        let log = EventLog<Int, Never>()
        Signal<Signal<Int, Never>, Never>(values: [Signal(values: [1, 2]), Signal(values: [3])])
            .flatten().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    // MARK: flatMapLatest / switchToLatest

    func testFlatMapLatestDropsTheReplacedInner() {
        let (scheduler, a, b, recorder) = marbleScenario(.latest)
        scheduler.run()
        // At t = 5, b replaces a before a's 2 is due: 2 is never sent.
        recorder.assertEvents([(2, .next(1)), (6, .next(3)), (8, .next(4)), (10, .completed)])
        XCTAssertEqual(a.disposals.value, 1)
        XCTAssertEqual(b.disposals.value, 1)
    }

    func testSwitchToLatestNeverForwardsAReplacedInnersValue() {
        let outer = Subject<Subject<Int, TestError>, TestError>()
        let first = Subject<Int, TestError>()
        let second = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        outer.switchToLatest().record(into: log)
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)
        first.sendError(TestError())
        second.send(3)
        XCTAssertEqual(log.events, [.next(1), .next(3)])
    }

    func testSwitchToLatestDisposesTheReplacedInner() {
        expectLiveSubscriptions("the probe keeps its inner's observer")
        let outer = Subject<Int, TestError>()
        let inners = [SubscriptionProbe(), SubscriptionProbe()]
        outer.flatMapLatest { inners[$0].signal }.subscribe()
        outer.send(0)
        XCTAssertEqual(inners[0].disposals.value, 0)
        outer.send(1)
        XCTAssertEqual(inners[0].disposals.value, 1)
        XCTAssertEqual(inners[1].disposals.value, 0)
    }

    func testSwitchToLatestWaitsForTheCurrentInnerAfterTheOuterCompletes() {
        let outer = Subject<Int, TestError>()
        let inners = [Subject<Int, TestError>(), Subject<Int, TestError>()]
        let log = EventLog<Int, TestError>()
        outer.flatMapLatest { inners[$0] }.record(into: log)
        outer.send(0)
        outer.send(1)
        outer.sendCompleted()
        inners[0].sendCompleted()
        XCTAssertEqual(log.events, [])
        inners[1].send(4)
        inners[1].sendCompleted()
        XCTAssertEqual(log.events, [.next(4), .completed])
    }

    func testSwitchToLatestCompletesWithTheOuterWhenNoInnerIsLive() {
        let outer = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        outer.flatMapLatest { Signal<Int, TestError>(value: $0) }.record(into: log)
        outer.send(1)
        XCTAssertEqual(log.events, [.next(1)])
        outer.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .completed])

        let empty = EventLog<Int, Never>()
        Signal<Signal<Int, Never>, Never>.empty.switchToLatest().record(into: empty)
        XCTAssertEqual(empty.events, [.completed])
    }

    func testSwitchToLatestInnerErrorFailsAndDisposesTheOuter() {
        let outer = SubscriptionProbe()
        let inner = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        outer.signal.flatMapLatest { _ in inner }.record(into: log)
        outer.observer?.send(0)
        inner.sendError(TestError(6))
        XCTAssertEqual(log.events, [.error(TestError(6))])
        XCTAssertEqual(outer.disposals.value, 1)
    }

    func testSwitchToLatestOuterErrorFailsAndDisposesTheInner() {
        let outer = Subject<Int, TestError>()
        let inner = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        outer.flatMapLatest { _ in inner.signal }.record(into: log)
        outer.send(0)
        outer.sendError(TestError(1))
        XCTAssertEqual(log.events, [.error(TestError(1))])
        XCTAssertEqual(inner.disposals.value, 1)
    }

    func testSwitchToLatestDisposalDisposesTheOuterAndTheCurrentInner() {
        let outer = SubscriptionProbe()
        let inner = SubscriptionProbe()
        let subscription = outer.signal.flatMapLatest { _ in inner.signal }.subscribe()
        outer.observer?.send(0)
        subscription.dispose()
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inner.disposals.value, 1)
    }

    func testSwitchToLatestOfSynchronousInnersSendsThemAll() {
        let log = EventLog<Int, Never>()
        Signal<Signal<Int, Never>, Never>(values: [Signal(values: [1, 2]), Signal(values: [3])])
            .switchToLatest().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testSwitchToLatestCompletesAfterManySynchronousInnersFromASubject() {
        // Each inner completes and ends its subscription inside the handler; the result still completes.
        let outer = Subject<Signal<Int, Never>, Never>()
        let log = EventLog<Int, Never>()
        let subscription = outer.switchToLatest().record(into: log)
        for index in 0..<1_000 { outer.send(Signal(values: [index, -index])) }
        XCTAssertFalse(subscription.isDisposed)
        outer.sendCompleted()
        XCTAssertEqual(log.events.count, 2_001)
        XCTAssertEqual(log.events.suffix(3), [.next(999), .next(-999), .completed])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAnInnerThatEndsWithoutATerminalEventWhileItStartsEndsTheResultQuietly() {
        for strategy in Strategy.allCases {
            let log = EventLog<Int, TestError>()
            // The recipe drops its observer: the inner's subscription ends during its start, with no
            // terminal event, while the inner is live.
            let subscription = strategy.apply(Signal<Int, TestError>(values: [0])) { _ in
                Signal<Int, TestError> { observer in
                    observer.send(1)
                    return nil
                }
            }.record(into: log)
            XCTAssertEqual(log.events, [.next(1)], "\(strategy): no completion, an inner never completed")
            XCTAssertTrue(subscription.isDisposed, "\(strategy)")
        }
    }

    // MARK: concatMap / concat

    func testConcatMapRunsInnersOneAfterTheOther() {
        let (scheduler, a, b, recorder) = marbleScenario(
            .concat, outer: [(1, .next("a")), (3, .next("b")), (10, .completed)])
        scheduler.advance(to: .seconds(5))
        XCTAssertEqual(b.subscriptions.value, 0, "b waits for a")
        scheduler.run()
        recorder.assertEvents([(2, .next(1)), (5, .next(2)), (7, .next(3)), (9, .next(4)), (10, .completed)])
        XCTAssertEqual(a.disposals.value, 1)
        XCTAssertEqual(b.subscriptions.value, 1)
    }

    func testConcatSubscribesTheNextInnerOnlyAfterThePreviousCompleted() {
        let outer = Subject<Int, TestError>()
        let inners = [SubscriptionProbe(), SubscriptionProbe()]
        let log = EventLog<Int, TestError>()
        outer.concatMap { inners[$0].signal }.record(into: log)
        outer.send(0)
        outer.send(1)
        outer.sendCompleted()
        XCTAssertEqual(inners[1].subscriptions.value, 0)
        inners[0].observer?.send(1)
        inners[0].observer?.sendCompleted()
        XCTAssertEqual(inners[1].subscriptions.value, 1)
        inners[1].observer?.send(2)
        XCTAssertEqual(log.events, [.next(1), .next(2)])
        inners[1].observer?.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testConcatInnerErrorFailsAndDropsTheQueuedInners() {
        let outer = SubscriptionProbe()
        let inners = [SubscriptionProbe(), SubscriptionProbe()]
        let log = EventLog<Int, TestError>()
        outer.signal.concatMap { inners[$0].signal }.record(into: log)
        outer.observer?.send(0)
        outer.observer?.send(1)
        inners[0].observer?.sendError(TestError(9))
        XCTAssertEqual(log.events, [.error(TestError(9))])
        XCTAssertEqual(inners[1].subscriptions.value, 0)
        XCTAssertEqual(outer.disposals.value, 1)
    }

    func testConcatDisposalDisposesTheOuterAndTheCurrentInner() {
        let outer = SubscriptionProbe()
        let inners = [SubscriptionProbe(), SubscriptionProbe()]
        let subscription = outer.signal.concatMap { inners[$0].signal }.subscribe()
        outer.observer?.send(0)
        outer.observer?.send(1)
        subscription.dispose()
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inners[0].disposals.value, 1)
        XCTAssertEqual(inners[1].subscriptions.value, 0)
    }

    func testConcatOfASignalOfSignals() {
        let log = EventLog<Int, Never>()
        Signal<Signal<Int, Never>, Never>(values: [Signal(values: [1, 2]), .empty, Signal(values: [3])])
            .concat().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testConcatOfManyQueuedSynchronousInnersDoesNotGrowTheStack() {
        // 50,000 inners queue behind a live one; when it completes, each next inner completes
        // synchronously during its own start. They must run in a loop, not by recursion.
        let outer = Subject<Signal<Int, Never>, Never>()
        let gate = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        outer.concat().reduce(0, +).record(into: log)
        outer.send(gate.signal)
        for value in 1...50_000 { outer.send(Signal(value: value)) }
        outer.sendCompleted()
        gate.sendCompleted()
        XCTAssertEqual(log.events, [.next(50_000 * 50_001 / 2), .completed])
    }

    // MARK: all three

    func testSynchronousInfiniteInnerWithTakeTerminates() {
        for strategy in Strategy.allCases {
            let log = EventLog<Int, Never>()
            strategy.apply(Signal<Int, Never>(value: 0)) { _ in Signal<Int, Never>(values: 1...) }
                .take(3).record(into: log)
            XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed], "\(strategy)")
        }
    }

    func testFinishedInnersAreReleasedWhileTheSubscriptionLives() {
        for strategy in Strategy.allCases {
            let outer = Subject<Signal<Int, TestError>, TestError>()
            let inner = Subject<Int, TestError>()
            weak var weakTracked: Tracked?
            let subscription = strategy.apply(outer) { $0 }.subscribe()
            do {
                let tracked = Tracked()
                weakTracked = tracked
                outer.send(inner.map { $0 + tracked.id })
            }
            XCTAssertNotNil(weakTracked, "\(strategy)")
            inner.sendCompleted()
            XCTAssertNil(weakTracked, "\(strategy): a finished inner signal leaked")
            subscription.dispose()
        }
    }

    func testTransformIsReleasedWhenTheSubscriptionEnds() {
        for strategy in Strategy.allCases {
            for ending in ["dispose", "complete", "fail"] {
                let outer = Subject<Int, TestError>()
                weak var weakTracked: Tracked?
                var subscription: (any Disposable)?
                do {
                    let tracked = Tracked()
                    weakTracked = tracked
                    subscription = strategy.apply(outer) { Signal<Int, TestError>(value: $0 + tracked.id) }
                        .subscribe()
                }
                outer.send(1)
                XCTAssertNotNil(weakTracked)
                switch ending {
                case "dispose": subscription?.dispose()
                case "complete": outer.sendCompleted()
                default: outer.sendError(TestError())
                }
                XCTAssertNil(weakTracked, "\(strategy) \(ending): the transform leaked")
            }
        }
    }

    func testInnerValuesSentFromTheDownstreamCallbackAreNotLostOrReordered() {
        expectLiveSubscriptions("the observer captures the outer subject")
        // A subscriber that feeds the outer subject from its own callback (reentrancy).
        for strategy in Strategy.allCases {
            let outer = Subject<Int, Never>()
            var received: [Int] = []
            strategy.apply(outer) { value in Signal<Int, Never>(values: [value, value + 100]) }
                .subscribe(next: { value in
                    received.append(value)
                    if value < 3 { outer.send(value + 1) }
                })
            outer.send(1)
            XCTAssertEqual(received, [1, 101, 2, 102, 3, 103], "\(strategy)")
        }
    }
}
