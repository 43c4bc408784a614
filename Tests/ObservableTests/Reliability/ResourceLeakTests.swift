import Foundation
import Observable
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// Leak checks: ``ResourceCounter`` and weak references after disposal, completion, and the release
/// of a source.
final class ResourceLeakTests: ResourceCheckedTestCase {
    typealias Operator = (Signal<Int, TestError>) -> Signal<Int, TestError>

    /// One of each operator family, applied to the source under test.
    static func operators(_ scheduler: TestScheduler) -> [(String, Operator)] {
        [
            ("map", { $0.map { $0 + 1 } }),
            ("filter", { $0.filter { $0 > 0 } }),
            ("take", { $0.take(3) }),
            ("skip", { $0.skip(1) }),
            ("scan", { $0.scan(0, +) }),
            ("takeLast", { $0.takeLast(2) }),
            ("reduce", { $0.reduce(0, +) }),
            ("distinctUntilChanged", { $0.distinctUntilChanged() }),
            ("take(while:)", { $0.take(while: { $0 < 10 }) }),
            ("debounce", { $0.debounce(.seconds(1), on: scheduler) }),
            ("throttle", { $0.throttle(.seconds(1), latest: false, on: scheduler) }),
            ("throttle(latest:)", { $0.throttle(.seconds(1), latest: true, on: scheduler) }),
            ("delay", { $0.delay(.seconds(1), on: scheduler) }),
            ("timeout", { $0.timeout(after: .seconds(5), raising: TestError(), on: scheduler) }),
            ("deliver(on:)", { $0.deliver(on: scheduler) }),
            ("subscribe(on:)", { $0.subscribe(on: scheduler) }),
            ("concat", { $0.concat(Signal(value: 1)) }),
            ("merge", { $0.merge(with: Signal(value: 1)) }),
            ("combineLatest", { $0.combineLatest(with: Signal(value: 1)).map { $0 + $1 } }),
            ("zip", { $0.zip(with: Signal(values: [1, 2])).map { $0 + $1 } }),
            ("withLatestFrom", { $0.withLatestFrom(Signal(value: 1)).map { $0 + $1 } }),
            ("take(until:)", { $0.take(until: Signal<Int, TestError>.empty.concat(Signal<Int, TestError>.never)) }),
            ("catch", { $0.catch { _ in Signal(value: 1) } }),
            ("retry", { $0.retry(2) }),
            ("flatMap", { $0.flatMap { Signal(value: $0) } }),
            ("flatMapLatest", { $0.flatMapLatest { Signal(value: $0) } }),
            ("concatMap", { $0.concatMap { Signal(value: $0) } }),
            ("then", { $0.then { Signal(value: 1) } }),
            ("startWith", { $0.startWith(0) }),
            ("combinePrevious", { $0.combinePrevious(0).map { $0 + $1 } }),
            ("materialize/dematerialize", { $0.materialize().dematerialize() }),
            ("publish/autoconnect", { $0.publish().autoconnect() }),
            ("replayLazily", { $0.replayLazily() }),
        ]
    }

    func testResourceCounterCountsALiveSubscriptionUntilItIsDisposed() throws {
        try XCTSkipUnless(ResourceCounter.isEnabled, "a release build of the library does not count")
        let before = ResourceCounter.total
        let subject = Subject<Int, Never>()
        XCTAssertEqual(ResourceCounter.total, before + 1, "the subject's core")
        do {
            let subscription = subject.map { $0 + 1 }.subscribe(next: { _ in })
            XCTAssertEqual(ResourceCounter.total, before + 3, "the core, the subscription's entry and lifetime")
            subscription.dispose()
            XCTAssertEqual(ResourceCounter.total, before + 2, "the lifetime (the disposable held here)")
        }
        XCTAssertEqual(ResourceCounter.total, before + 1, "only the subject's core is left")
    }

    func testEveryOperatorsSubscriptionIsFreedWhenItsSourceSubjectIsReleased() throws {
        try XCTSkipUnless(ResourceCounter.isEnabled, "a release build of the library does not count")
        // A subject that is released ends its subscriptions quietly (nobody can send any more): every
        // operator downstream must then free itself, after finishing what it still holds.
        let scheduler = TestScheduler()
        for (name, apply) in Self.operators(scheduler) {
            for valuesSent in [0, 2] {
                let before = ResourceCounter.total
                weak var capturedWeakly: Tracked?
                do {
                    let captured = Tracked()
                    capturedWeakly = captured
                    let subject = Subject<Int, TestError>()
                    apply(subject.signal).subscribe(next: { _ in withExtendedLifetime(captured) {} })
                    for value in 0..<valuesSent { subject.send(value) }
                }
                scheduler.run()
                XCTAssertEqual(ResourceCounter.total - before, 0, "\(name) after \(valuesSent) values: objects left")
                XCTAssertNil(
                    capturedWeakly, "\(name) after \(valuesSent) values: the observer's closure is still alive")
            }
        }
    }

    func testEveryOperatorReleasesItsClosuresAfterDisposalAndAfterCompletion() throws {
        let scheduler = TestScheduler()
        for (name, apply) in Self.operators(scheduler) {
            // replayLazily never disconnects (RAC 2.5): disposing its subscriber leaves the source running.
            for ending in ["dispose", "complete", "fail"] where !(name == "replayLazily" && ending == "dispose") {
                let before = ResourceCounter.total
                weak var capturedWeakly: Tracked?
                let subject = Subject<Int, TestError>()
                do {
                    let captured = Tracked()
                    capturedWeakly = captured
                    let subscription = apply(subject.map { value in withExtendedLifetime(captured) { value } })
                        .subscribe(next: { _ in })
                    subject.send(1)
                    switch ending {
                    case "dispose": subscription.dispose()
                    case "complete": subject.sendCompleted()
                    default: subject.sendError(TestError())
                    }
                }
                scheduler.run()
                XCTAssertNil(capturedWeakly, "\(name), \(ending): the pipeline's closures are still alive")
                if ResourceCounter.isEnabled {
                    XCTAssertEqual(ResourceCounter.total - before, 1, "\(name), \(ending): only the subject is left")
                }
            }
        }
    }

    // MARK: What the operators do when their source goes away without a terminal event

    func testDebounceSendsItsPendingValueWhenItsSourceIsReleasedThenEndsQuietly() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        var subject: Subject<Int, TestError>? = Subject()
        let subscription = subject!.debounce(.seconds(1), on: scheduler).record(into: log)
        subject?.send(7)
        subject = nil
        XCTAssertEqual(log.entries, [.next(7, at: 0)], "nothing more can come: the quiet period is certain")
        XCTAssertTrue(subscription.isDisposed, "ended quietly, without a completion")
    }

    func testThrottleSendsThePendingValueAtTheWindowsEndWhenItsSourceIsReleasedThenEndsQuietly() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        var subject: Subject<Int, TestError>? = Subject()
        let subscription = subject!.throttle(.seconds(1), latest: true, on: scheduler).record(into: log)
        subject?.send(1)
        subject?.send(2)
        subject = nil
        XCTAssertFalse(subscription.isDisposed, "the pending value waits for the window's end")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 1_000)])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testThrottleStillCompletesAfterTheWindowWhenItsSourceCompletedThenWentAway() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        let subject = Subject<Int, TestError>()
        subject.throttle(.seconds(1), latest: true, on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()  // the source's subscription ends right after: that is no news
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 1_000), .completed(at: 1_000)])
    }

    func testDelaySendsHeldValuesWhenItsSourceIsReleasedThenEndsQuietly() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        var subject: Subject<Int, TestError>? = Subject()
        let subscription = subject!.delay(.seconds(2), on: scheduler).record(into: log)
        subject?.send(1)
        scheduler.advance(by: .seconds(1))
        subject?.send(2)
        subject = nil
        scheduler.advance(by: .seconds(1))
        XCTAssertFalse(subscription.isDisposed, "the value sent at 1 s goes out at 3 s")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(1, at: 2_000), .next(2, at: 3_000)])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testDeliverOnDeliversQueuedValuesWhenItsSourceIsReleasedThenEndsQuietly() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        var subject: Subject<Int, TestError>? = Subject()
        let subscription = subject!.deliver(on: scheduler).record(into: log)
        subject?.send(1)
        subject?.send(2)
        subject = nil
        XCTAssertEqual(log.entries, [])
        scheduler.advance()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 0)])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testFlatMapLetsLiveInnersFinishWhenTheOuterSubjectIsReleasedThenEndsQuietly() {
        let inner = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        var outer: Subject<Int, TestError>? = Subject()
        let subscription = outer!.flatMap { _ in inner }.record(into: log)
        outer?.send(0)
        outer = nil
        XCTAssertFalse(subscription.isDisposed, "the inner is still live")
        inner.send(5)
        inner.sendCompleted()
        XCTAssertEqual(log.events, [.next(5)], "no completion: the outer never completed")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSwitchToLatestEndsQuietlyWhenTheOuterAndTheCurrentInnerAreReleased() {
        let log = EventLog<Int, TestError>()
        var outer: Subject<Subject<Int, TestError>, TestError>? = Subject()
        var inner: Subject<Int, TestError>? = Subject()
        let subscription = outer!.switchToLatest().record(into: log)
        outer?.send(inner!)
        inner?.send(1)
        outer = nil
        XCTAssertFalse(subscription.isDisposed)
        inner = nil
        XCTAssertEqual(log.events, [.next(1)])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSwitchToLatestStillCompletesWhenAReleasedInnerWasReplacedByOneThatCompleted() {
        let log = EventLog<Int, TestError>()
        let outer = Subject<Subject<Int, TestError>, TestError>()
        var first: Subject<Int, TestError>? = Subject()
        let second = Subject<Int, TestError>()
        outer.switchToLatest().record(into: log)
        outer.send(first!)
        first = nil  // the current inner goes away without completing
        outer.send(second)
        second.send(2)
        second.sendCompleted()
        outer.sendCompleted()
        XCTAssertEqual(log.events, [.next(2), .completed])
    }

    func testMergedFlatMapNeverCompletesAfterAnInnerWentAwayWithoutCompleting() {
        let log = EventLog<Int, TestError>()
        let outer = Subject<Int, TestError>()
        var first: Subject<Int, TestError>? = Subject()
        // The very signal of `first`, made before `first` goes away; single-threaded test, so the box is safe.
        let firstSignal = UncheckedBox(first!.signal)
        let subscription = outer.flatMap { $0 == 0 ? firstSignal.value : Signal(value: 9) }.record(into: log)
        outer.send(0)
        first = nil
        outer.send(1)
        outer.sendCompleted()
        XCTAssertEqual(log.events, [.next(9)], "like merge: an input that never completed, no completion")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testConcatMapEndsQuietlyWhenTheRunningInnerIsReleased() {
        let log = EventLog<Int, TestError>()
        let outer = Subject<Int, TestError>()
        var first: Subject<Int, TestError>? = Subject()
        // The very signal of `first`, made before `first` goes away; single-threaded test, so the box is safe.
        let firstSignal = UncheckedBox(first!.signal)
        let subscription = outer.concatMap { $0 == 0 ? firstSignal.value : Signal(value: 9) }.record(into: log)
        outer.send(0)
        outer.send(1)  // queued behind the first inner, which can never complete now
        first = nil
        XCTAssertEqual(log.events, [])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testFlatMapReleasesItsTransformOnceTheOuterSourceEndedWhileAnInnerStillRuns() {
        weak var capturedWeakly: Tracked?
        let outer = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        var inner: Subject<Int, TestError>? = Subject()
        do {
            let captured = Tracked()
            capturedWeakly = captured
            let innerSubject = inner!
            outer.flatMapLatest { _ in withExtendedLifetime(captured) { innerSubject } }.record(into: log)
        }
        outer.send(0)
        outer.sendCompleted()
        XCTAssertNil(capturedWeakly, "the transform (and what it captured) is released with the outer")
        inner?.send(1)
        inner = nil  // the transform no longer keeps the inner subject: its release ends the subscription
        XCTAssertEqual(log.events, [.next(1)])
    }

    /// RAC 2.5's lifetime rule (issue 15, item 7): a `never` subscription's subscriber is unreachable, so
    /// a `never` input must not keep `merge(subject, .never)` or `sample(on: .never)` alive after the
    /// subject is released.
    func testOperatorsWithANeverInputAreFreedWhenTheirOtherSourceIsReleased() throws {
        try XCTSkipUnless(ResourceCounter.isEnabled, "a release build of the library does not count")
        let never = Signal<Int, TestError>.never
        let cases: [(String, Operator)] = [
            ("merge", { $0.merge(with: never) }),
            ("sample", { $0.sample(on: never) }),
            ("combineLatest", { $0.combineLatest(with: never).map { $0 + $1 } }),
        ]
        for (name, apply) in cases {
            let before = ResourceCounter.total
            do {
                let subject = Subject<Int, TestError>()
                apply(subject.signal).subscribe(next: { _ in })
            }
            XCTAssertEqual(ResourceCounter.total - before, 0, "\(name) with a never input: objects left")
        }
    }
}
