import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `concat(_:)` applied to a signal that `concat(_:)` made: the chain runs as one list of signals.
final class ConcatChainTests: ResourceCheckedTestCase {
    func testAChainOfConcatsSubscribesEachSignalOnlyAfterThePreviousCompleted() {
        let first = ProbeSource<Int, Never>()
        let second = ProbeSource<Int, Never>()
        let third = ProbeSource<Int, Never>()
        let log = EventLog<Int, Never>()
        first.signal.concat(second.signal).concat(third.signal).record(into: log)
        first.send(1)
        XCTAssertEqual([second.subscriptions, third.subscriptions], [0, 0])
        first.sendCompleted()
        XCTAssertEqual([second.subscriptions, third.subscriptions], [1, 0])
        second.send(2)
        second.sendCompleted()
        XCTAssertEqual(third.subscriptions, 1)
        third.send(3)
        third.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual([first.subscriptions, second.subscriptions, third.subscriptions], [1, 1, 1])
    }

    func testAChainOfConcatsStopsAtTheFirstError() {
        let last = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(value: 1).concat(Signal(error: TestError(2))).concat(last.signal).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .error(TestError(2))])
        XCTAssertEqual(last.subscriptions, 0)
    }

    func testDisposingAChainOfConcatsDisposesTheRunningSignalAndStartsNoOther() {
        let running = ProbeSource<Int, Never>()
        let later = ProbeSource<Int, Never>()
        let subscription = Signal<Int, Never>.empty.concat(running.signal).concat(later.signal).subscribe()
        XCTAssertEqual(running.subscriptions, 1)
        subscription.dispose()
        XCTAssertEqual(running.disposals, 1)
        running.sendCompleted()
        XCTAssertEqual(later.subscriptions, 0)
    }

    func testExtendingAChainOfConcatsLeavesTheChainItExtendedUnchanged() {
        let prefix = Signal<Int, Never>(value: 1).concat(Signal(value: 2))
        let withThree = prefix.concat(Signal(value: 3))
        let withFour = prefix.concat(Signal(value: 4)).concat(Signal(value: 5))
        XCTAssertEqual(values(of: prefix), [1, 2])
        XCTAssertEqual(values(of: withThree), [1, 2, 3])
        XCTAssertEqual(values(of: withFour), [1, 2, 4, 5])
        XCTAssertEqual(values(of: withThree), [1, 2, 3], "a chain runs again for each subscription")
    }

    func testAConcatChainOnTheRightRunsInOrder() {
        let right = Signal<Int, Never>(value: 2).concat(Signal(value: 3))
        let chain = Signal<Int, Never>(value: 1).concat(right).concat(Signal(value: 4))
        XCTAssertEqual(values(of: chain), [1, 2, 3, 4])
    }

    func testAValueOfTheFirstOfAThousandConcatenatedSignalsCrossesAsFewStagesAsInOneConcat() {
        // Each stage a value crosses is at least one frame of the stack under the subscriber's callback:
        // a value that crossed one stage per `concat` would arrive a thousand stages deeper.
        let one = depthOfFirstValue(in: Signal<Int, Never>(value: 0).concat(Signal(value: 1)))
        var chain = Signal<Int, Never>(value: 0)
        for index in 1...1_000 { chain = chain.concat(Signal(value: index)) }
        let thousand = depthOfFirstValue(in: chain)
        XCTAssertLessThanOrEqual(thousand, one + 8, "stack depth \(thousand), against \(one) for one concat")
    }

    func testAChainOfConcatsReleasesItsSignalsWhenTheLastSubscriptionEnds() {
        weak var weakTracked: Tracked?
        let first = Subject<Int, Never>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let last = Signal<Int, Never> { observer in
                _ = tracked
                observer.sendCompleted()
                return nil
            }
            first.concat(Signal(value: 1)).concat(last).subscribe()
        }
        XCTAssertNotNil(weakTracked)
        first.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    func testMappingAChainOfConcatsForAValuesOnlySubscriberMapsEveryValue() {
        // `map` joins a plain subject's signal directly; a chain's signal must not be taken for one.
        let chain = Signal<Int, Never>(value: 1).concat(Signal(value: 2)).concat(Signal(value: 3))
        XCTAssertEqual(values(of: chain.map { $0 * 10 }), [10, 20, 30])
        XCTAssertEqual(values(of: chain.named("chain").map { $0 * 10 }), [10, 20, 30])
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        subject.concat(Signal(value: 2)).concat(Signal(value: 3)).map { $0 + 100 }
            .subscribe(next: { received.append($0) })
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(received, [101, 102, 103])
    }

    func testEndingTheSubscriptionFromInsideAStageOfAChainOfConcatsStartsNoLaterSignal() {
        let second = ProbeSource<Int, Never>()
        let third = ProbeSource<Int, Never>()
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).concat(second.signal).concat(third.signal).take(1).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .completed])
        XCTAssertEqual([second.subscriptions, third.subscriptions], [0, 0])
    }

    func testTwoSubscriptionsOfOneChainOfConcatsRunIndependently() {
        let first = ProbeSource<Int, Never>()
        let second = ProbeSource<Int, Never>()
        let chain = first.signal.concat(second.signal).concat(Signal(value: 9))
        let a = EventLog<Int, Never>()
        let b = EventLog<Int, Never>()
        chain.record(into: a)
        let firstOfA = first.observer
        chain.record(into: b)
        XCTAssertEqual(first.subscriptions, 2)
        firstOfA?.sendCompleted()
        XCTAssertEqual(second.subscriptions, 1, "only the first subscription moved on")
        second.send(5)
        second.sendCompleted()
        XCTAssertEqual(a.events, [.next(5), .next(9), .completed])
        XCTAssertEqual(b.events, [])
        first.send(1)
        first.sendCompleted()
        XCTAssertEqual(second.subscriptions, 2)
        second.sendCompleted()
        XCTAssertEqual(b.events, [.next(1), .next(9), .completed])
    }

    func testAChainOfConcatsMovesOnWhenAStageCompletesOnAnotherThread() {
        let first = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let done = expectation(description: "completed")
        first.concat(Signal(value: 2)).concat(Signal(value: 3))
            .subscribe(next: { log.append(.next($0)) }, completed: { done.fulfill() })
        let sender = Thread {
            first.send(1)
            first.sendCompleted()
        }
        sender.start()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.values, [1, 2, 3])
    }

    private func values(of signal: Signal<Int, Never>) -> [Int] {
        var values: [Int] = []
        signal.subscribe(next: { values.append($0) })
        return values
    }

    private func depthOfFirstValue(in signal: Signal<Int, Never>) -> Int {
        var depth: Int?
        signal.subscribe(next: { _ in if depth == nil { depth = Thread.callStackReturnAddresses.count } })
        return depth ?? .max
    }
}
