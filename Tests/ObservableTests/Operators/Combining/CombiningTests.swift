import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class CombiningTests: ResourceCheckedTestCase {
    // MARK: concat

    func testConcatSendsTheSecondSignalsValuesAfterTheFirstCompletes() {
        let events = EventLog<Int, Never>()
        Signal(values: [1, 2]).concat(Signal(values: [3, 4])).record(into: events)
        XCTAssertEqual(events.events, [.next(1), .next(2), .next(3), .next(4), .completed])
    }

    func testConcatSubscribesToTheSecondOnlyWhenTheFirstCompletes() {
        let first = Subject<Int, Never>()
        let second = ProbeSource<Int, Never>()
        let events = EventLog<Int, Never>()
        first.concat(second.signal).record(into: events)
        first.send(1)
        XCTAssertEqual(second.subscriptions, 0)
        first.sendCompleted()
        XCTAssertEqual(second.subscriptions, 1)
        second.send(2)
        XCTAssertEqual(events.events, [.next(1), .next(2)])
        second.sendCompleted()
        XCTAssertEqual(events.events, [.next(1), .next(2), .completed])
    }

    func testConcatFailsWithoutSubscribingToTheSecondWhenTheFirstFails() {
        let second = ProbeSource<Int, TestError>()
        let events = EventLog<Int, TestError>()
        Signal<Int, TestError> { observer in
            observer.send(1)
            observer.sendError(TestError(3))
            return nil
        }.concat(second.signal).record(into: events)
        XCTAssertEqual(events.events, [.next(1), .error(TestError(3))])
        XCTAssertEqual(second.subscriptions, 0)
    }

    func testConcatSendsTheSecondSignalsError() {
        let events = EventLog<Int, TestError>()
        Signal<Int, TestError>(value: 1).concat(Signal(error: TestError(8))).record(into: events)
        XCTAssertEqual(events.events, [.next(1), .error(TestError(8))])
    }

    func testDisposingConcatDisposesTheRunningSignal() {
        let first = ProbeSource<Int, Never>()
        let second = ProbeSource<Int, Never>()
        let subscription = first.signal.concat(second.signal).subscribe()
        subscription.dispose()
        XCTAssertEqual(first.disposals, 1)
        XCTAssertEqual(second.subscriptions, 0)

        let third = ProbeSource<Int, Never>()
        let running = Signal<Int, Never>.empty.concat(third.signal).subscribe()
        XCTAssertEqual(third.subscriptions, 1)
        running.dispose()
        XCTAssertEqual(third.disposals, 1)
    }

    func testConcatWithEmptySignals() {
        let events = EventLog<Int, Never>()
        Signal<Int, Never>.empty.concat(Signal<Int, Never>.empty).record(into: events)
        XCTAssertEqual(events.events, [.completed])
    }

    func testConcatReleasesClosuresAfterCompletion() {
        weak var weakTracked: Tracked?
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            first.concat(second).subscribe(next: { _ in _ = tracked })
        }
        first.sendCompleted()
        XCTAssertNotNil(weakTracked)
        second.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    // MARK: then

    func testThenContinuesOntoTheReturnedSignalOnlyAfterCompletion() {
        // RAC spec: "should continue onto returned signal".
        let subject = Subject<Int, Never>()
        let events = EventLog<String, Never>()
        subject.then { Signal(value: "two") }.record(into: events)
        subject.send(1)
        XCTAssertEqual(events.events, [])
        subject.sendCompleted()
        XCTAssertEqual(events.events, [.next("two"), .completed])
    }

    func testThenSequencesEvenIfNoValueWasSent() {
        // RAC spec: "should sequence even if no next value is sent".
        let subject = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        subject.then { Signal(value: 7) }.record(into: events)
        subject.sendCompleted()
        XCTAssertEqual(events.values, [7])
    }

    func testThenSendsTheErrorAndDoesNotCallTheBlock() {
        let calls = Counter()
        let events = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(2)).then { () -> Signal<Int, TestError> in
            calls.increment()
            return Signal(value: 1)
        }.record(into: events)
        XCTAssertEqual(events.events, [.error(TestError(2))])
        XCTAssertEqual(calls.value, 0)
    }

    func testThenCallsTheBlockOncePerSubscriptionAtCompletion() {
        let calls = Counter()
        let subject = Subject<Int, Never>()
        let continued = subject.then { () -> Signal<Int, Never> in
            calls.increment()
            return Signal(value: calls.value)
        }
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        continued.record(into: first)
        continued.record(into: second)
        XCTAssertEqual(calls.value, 0)
        subject.sendCompleted()
        XCTAssertEqual(calls.value, 2)
        XCTAssertEqual(first.values + second.values, [1, 2])
    }

    func testDisposingThenDisposesTheContinuation() {
        let next = ProbeSource<Int, Never>()
        let subscription = Signal<Int, Never>.empty.then { next.signal }.subscribe()
        XCTAssertEqual(next.subscriptions, 1)
        subscription.dispose()
        XCTAssertEqual(next.disposals, 1)
    }

    // MARK: merge

    func testMergeSendsValuesOfBothInArrivalOrderAndCompletesWhenBothComplete() {
        let a = Subject<String, Never>()
        let b = Subject<String, Never>()
        let events = EventLog<String, Never>()
        a.merge(with: b).record(into: events)
        a.send("a1")
        b.send("b1")
        a.send("a2")
        a.sendCompleted()
        b.send("b2")
        XCTAssertEqual(events.events, [.next("a1"), .next("b1"), .next("a2"), .next("b2")])
        b.sendCompleted()
        XCTAssertEqual(events.events.last, .completed)
    }

    func testMergeFailsOnTheFirstErrorAndDisposesTheOthers() {
        let probes = (0..<3).map { _ in ProbeSource<Int, TestError>() }
        let events = EventLog<Int, TestError>()
        Signal.merge(probes.map(\.signal)).record(into: events)
        probes[0].send(1)
        probes[2].sendError(TestError(6))
        probes[1].send(2)
        XCTAssertEqual(events.events, [.next(1), .error(TestError(6))])
        XCTAssertEqual(probes.map(\.disposals), [1, 1, 1])
    }

    func testMergeDoesNotSubscribeToSignalsAfterASynchronousError() {
        // RAC spec: "should not subscribe to signals following error in +merge:".
        let later = ProbeSource<Int, TestError>()
        let events = EventLog<Int, TestError>()
        Signal.merge([Signal<Int, TestError>(error: TestError()), later.signal]).record(into: events)
        XCTAssertEqual(events.events, [.error(TestError())])
        XCTAssertEqual(later.subscriptions, 0)
    }

    func testVariadicMergeOfSubjects() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let c = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        Signal.merge(a, b, c).record(into: events)
        c.send(3)
        a.send(1)
        b.send(2)
        for subject in [a, b, c] { subject.sendCompleted() }
        XCTAssertEqual(events.events, [.next(3), .next(1), .next(2), .completed])
    }

    func testMergeOfNoSignalsCompletesAtOnce() {
        let events = EventLog<Int, Never>()
        Signal.merge([Signal<Int, Never>]()).record(into: events)
        XCTAssertEqual(events.events, [.completed])
    }

    func testMergeOfSynchronousSignalsSendsThemInOrder() {
        let events = EventLog<Int, Never>()
        Signal.merge([Signal(values: [1, 2]), Signal(values: [3])]).record(into: events)
        XCTAssertEqual(events.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testDisposingMergeDisposesEveryInput() {
        let probes = (0..<3).map { _ in ProbeSource<Int, Never>() }
        let subscription = Signal.merge(probes.map(\.signal)).subscribe()
        subscription.dispose()
        XCTAssertEqual(probes.map(\.disposals), [1, 1, 1])
    }

    func testMergeReleasesClosuresWhenAllInputsAreGone() {
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            let tracked = Tracked()
            weakTracked = tracked
            subscription = a.merge(with: b).subscribe(next: { _ in _ = tracked })
            a.sendCompleted()
        }
        XCTAssertNil(weakTracked)
        XCTAssertEqual(subscription?.isDisposed, true)
        subscription = nil
    }

    func testMergeFedFromManyThreadsDeliversSeriallyWithExactCounts() {
        let perThread = 2_000
        let subjects = (0..<4).map { _ in Subject<Int, Never>() }
        let detector = OverlapDetector()
        let sum = Counter()
        let terminal = EventLog<Int, Never>()
        Signal.merge(subjects).subscribeEvents { event in
            detector.enter()
            switch event {
            case .next(let value): sum.increment(by: value)
            default: terminal.append(event)
            }
            detector.leave()
        }
        runThreads(4) { index in
            for value in 1...perThread { subjects[index].send(value) }
            subjects[index].sendCompleted()
        }
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(sum.value, 4 * perThread * (perThread + 1) / 2)
        XCTAssertEqual(terminal.events, [.completed])
    }

    func testMergeDoesNotAccumulateFinishedInputs() {
        let live = Subject<Int, Never>()
        let finished = (0..<100).map { Signal<Int, Never>(value: $0) }
        let events = EventLog<Int, Never>()
        let subscription = Signal.merge([live.signal] + finished).record(into: events)
        XCTAssertEqual(events.values, Array(0..<100))
        // The subscription's lifetime holds the mailbox and the live input only.
        XCTAssertEqual((subscription as? CompositeDisposable)?.count, 2)
        live.send(100)
        XCTAssertEqual(events.values.last, 100)
    }

    func testConcatReleasesTheFirstInputsLifetimeWhenItCompletes() {
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        let subscription = first.concat(second).subscribe()
        first.sendCompleted()
        // Only the second signal's subscription remains.
        XCTAssertEqual((subscription as? CompositeDisposable)?.count, 1)
    }

    // MARK: startWith

    func testStartWithSendsTheValueBeforeTheSignal() {
        let subject = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        subject.startWith(0).record(into: events)
        XCTAssertEqual(events.events, [.next(0)])
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(events.events, [.next(0), .next(1), .completed])
    }

    func testStartWithOnAFailingSignal() {
        let events = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError()).startWith(9).record(into: events)
        XCTAssertEqual(events.events, [.next(9), .error(TestError())])
    }

    func testDisposingStartWithDisposesTheUpstream() {
        let probe = ProbeSource<Int, Never>()
        probe.signal.startWith(0).subscribe().dispose()
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(probe.disposals, 1)
    }

    // MARK: withLatestFrom

    func testWithLatestFromPairsEachValueWithTheOthersLatestValue() {
        let source = Subject<String, Never>()
        let other = Subject<Int, Never>()
        let events = EventLog<String, Never>()
        source.withLatestFrom(other).map { "\($0)\($1)" }.record(into: events)
        source.send("a")  // other has no value yet: dropped
        other.send(1)
        other.send(2)
        XCTAssertEqual(events.events, [])  // other's values alone send nothing
        source.send("b")
        other.send(3)
        source.send("c")
        source.send("d")
        XCTAssertEqual(events.values, ["b2", "c3", "d3"])
    }

    func testWithLatestFromSeesAValueTheOtherSendsOnSubscription() {
        let source = Signal<String, Never>(values: ["a", "b"])
        let events = EventLog<String, Never>()
        source.withLatestFrom(BehaviorSubject<Int, Never>(value: 5)).map { "\($0)\($1)" }.record(into: events)
        XCTAssertEqual(events.events, [.next("a5"), .next("b5"), .completed])
    }

    func testWithLatestFromCompletesWithTheSourceNotWithTheOther() {
        let source = Subject<Int, Never>()
        let other = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        source.withLatestFrom(other).map { $0 + $1 }.record(into: events)
        other.send(10)
        other.sendCompleted()
        source.send(1)
        XCTAssertEqual(events.events, [.next(11)])
        source.sendCompleted()
        XCTAssertEqual(events.events, [.next(11), .completed])
    }

    func testWithLatestFromFailsWhenEitherFails() {
        let source = Subject<Int, TestError>()
        let other = Subject<Int, TestError>()
        let events = EventLog<(Int, Int), TestError>()
        source.withLatestFrom(other).record(into: events)
        other.sendError(TestError(4))
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.events.first?.error, TestError(4))

        let events2 = EventLog<(Int, Int), TestError>()
        let source2 = Subject<Int, TestError>()
        source2.withLatestFrom(Subject<Int, TestError>()).record(into: events2)
        source2.sendError(TestError(5))
        XCTAssertEqual(events2.events.first?.error, TestError(5))
    }

    func testDisposingWithLatestFromDisposesBothUpstreams() {
        let source = ProbeSource<Int, Never>()
        let other = ProbeSource<Int, Never>()
        let subscription = source.signal.withLatestFrom(other.signal).subscribe()
        subscription.dispose()
        XCTAssertEqual(source.disposals, 1)
        XCTAssertEqual(other.disposals, 1)
    }

    func testWithLatestFromReleasesClosuresWhenTheSourceCompletes() {
        weak var weakTracked: Tracked?
        let source = Subject<Int, Never>()
        let other = BehaviorSubject<Int, Never>(value: 1)
        do {
            let tracked = Tracked()
            weakTracked = tracked
            source.withLatestFrom(other).map { $0 + $1 + tracked.id }.subscribe()
        }
        XCTAssertNotNil(weakTracked)
        source.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    // MARK: combinePrevious

    func testCombinePreviousPairsEachValueWithThePreviousStartingWithTheInitial() {
        // RAC's example: previous + current of 1, 2, 3, 4 with start 0 → 1, 3, 5, 7.
        let events = EventLog<Int, Never>()
        Signal(values: [1, 2, 3, 4]).combinePrevious(0).map { $0 + $1 }.record(into: events)
        XCTAssertEqual(events.events, [.next(1), .next(3), .next(5), .next(7), .completed])
    }

    func testCombinePreviousOfAnEmptySignalCompletesAtOnce() {
        let events = EventLog<(Int, Int), Never>()
        Signal<Int, Never>.empty.combinePrevious(0).record(into: events)
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.events.first?.isTerminal, true)
    }

    func testCombinePreviousPassesErrorsThrough() {
        let subject = Subject<Int, TestError>()
        let events = EventLog<String, TestError>()
        subject.combinePrevious(0).map { "\($0)>\($1)" }.record(into: events)
        subject.send(5)
        subject.sendError(TestError(1))
        XCTAssertEqual(events.events, [.next("0>5"), .error(TestError(1))])
    }

    func testCombinePreviousStartsAgainForEachSubscription() {
        let subject = BehaviorSubject<Int, Never>(value: 1)
        let pairs = subject.combinePrevious(0).map { "\($0)>\($1)" }
        let first = EventLog<String, Never>()
        pairs.record(into: first)
        subject.send(2)
        let second = EventLog<String, Never>()
        pairs.record(into: second)
        XCTAssertEqual(first.values, ["0>1", "1>2"])
        XCTAssertEqual(second.values, ["0>2"])
    }

    // MARK: sample

    func testSampleSendsTheLatestValueWhenTheSamplerFires() {
        // RAC spec: "should send the latest value when the sampler signal fires".
        let subject = Subject<Int, Never>()
        let sampler = Subject<Void, Never>()
        let events = EventLog<Int, Never>()
        subject.sample(on: sampler).record(into: events)
        sampler.send()
        XCTAssertEqual(events.values, [])
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(events.values, [])
        sampler.send()
        XCTAssertEqual(events.values, [2])
        subject.send(3)
        XCTAssertEqual(events.values, [2])
        sampler.send()
        XCTAssertEqual(events.values, [2, 3])
        sampler.send()
        XCTAssertEqual(events.values, [2, 3, 3])
    }

    func testSampleCompletesWhenEitherCompletes() {
        let subject = Subject<Int, Never>()
        let sampler = Subject<Void, Never>()
        let events = EventLog<Int, Never>()
        subject.sample(on: sampler).record(into: events)
        subject.send(1)
        sampler.sendCompleted()
        XCTAssertEqual(events.events, [.completed])

        let subject2 = Subject<Int, Never>()
        let sampler2 = ProbeSource<Void, Never>()
        let events2 = EventLog<Int, Never>()
        subject2.sample(on: sampler2.signal).record(into: events2)
        subject2.sendCompleted()
        XCTAssertEqual(events2.events, [.completed])
        XCTAssertEqual(sampler2.disposals, 1)
    }

    func testSampleFailsWhenEitherFails() {
        let subject = Subject<Int, TestError>()
        let sampler = Subject<Void, TestError>()
        let events = EventLog<Int, TestError>()
        subject.sample(on: sampler).record(into: events)
        sampler.sendError(TestError(3))
        XCTAssertEqual(events.events, [.error(TestError(3))])
    }

    func testDisposingSampleDisposesBothUpstreams() {
        let source = ProbeSource<Int, Never>()
        let sampler = ProbeSource<Int, Never>()
        source.signal.sample(on: sampler.signal).subscribe().dispose()
        XCTAssertEqual(source.disposals, 1)
        XCTAssertEqual(sampler.disposals, 1)
    }

    func testSampleOnVirtualTimeTicks() {
        let scheduler = TestScheduler()
        let position = Subject<Int, Never>()
        let ticks = Signal<Void, Never> { observer in
            scheduler.schedule(after: .seconds(1), interval: .seconds(1)) { observer.send() }
        }
        let events = EventLog<Int, Never>()
        position.sample(on: ticks).record(into: events)
        position.send(1)
        position.send(2)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(1))
        position.send(3)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(events.values, [2, 2, 3])
    }

    func testSampleReleasesClosuresWhenTheSamplerCompletes() {
        weak var weakTracked: Tracked?
        let source = Subject<Int, Never>()
        let sampler = Subject<Void, Never>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            source.sample(on: sampler).subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        sampler.sendCompleted()
        XCTAssertNil(weakTracked)
    }
}
