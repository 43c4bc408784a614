import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class CombineLatestTests: ResourceCheckedTestCase {
    // MARK: Values

    func testCombineLatestSendsNothingUntilBothSidesHaveSent() {
        let a = Subject<String, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<String, Never>()
        a.combineLatest(with: b).map { "\($0)\($1)" }.record(into: log)
        a.send("x")
        a.send("y")
        XCTAssertEqual(log.events, [])
        b.send(1)
        XCTAssertEqual(log.events, [.next("y1")])
    }

    func testCombineLatestSendsLatestPairWhenEitherSideSends() {
        // RAC spec: "should send nexts when either signal sends multiple times".
        let a = Subject<String, Never>()
        let b = Subject<String, Never>()
        let log = EventLog<String, Never>()
        Signal.combineLatest(a, b).map { $0 + $1 }.record(into: log)
        a.send("1")
        b.send("2")
        a.send("3")
        b.send("4")
        XCTAssertEqual(log.values, ["12", "32", "34"])
    }

    func testStaticCombineLatestInfersValueAndFailureTypes() {
        let a = Subject<Int, TestError>()
        let b = BehaviorSubject<String, TestError>(value: "s")
        let combined = Signal.combineLatest(a, b)
        let typed: Signal<(Int, String), TestError> = combined
        let log = EventLog<String, TestError>()
        typed.map { "\($0)\($1)" }.record(into: log)
        a.send(1)
        XCTAssertEqual(log.values, ["1s"])
    }

    func testCombineLatestOfTheSameSubjectSendsBothSides() {
        // RAC spec: "should combine the same signal" (it checks the latest pair; each side
        // receives every value in turn, so the mixed pair comes in between, as in RAC).
        let a = Subject<String, Never>()
        let log = EventLog<String, Never>()
        a.combineLatest(with: a).map { $0 + $1 }.record(into: log)
        a.send("foo")
        a.send("bar")
        XCTAssertEqual(log.values, ["foofoo", "barfoo", "barbar"])
    }

    func testCombineLatestSubscribesASideEffectingSignalOncePerInput() {
        // RAC spec: "should combine the same side-effecting signal".
        let counter = Counter()
        let sideEffecting = Signal<Int, Never> { observer in
            counter.increment()
            observer.send(counter.value)
            observer.sendCompleted()
            return nil
        }
        let log = EventLog<[Int], Never>()
        let combined = sideEffecting.combineLatest(with: sideEffecting).map { [$0, $1] }
        XCTAssertEqual(counter.value, 0)
        combined.record(into: log)
        XCTAssertEqual(counter.value, 2)
        XCTAssertEqual(log.events, [.next([1, 2]), .completed])
    }

    func testCombineLatestWithSynchronousSourcesPairsLastValueOfFirstWithEachOfSecond() {
        // The RAC tutorials' example: A sends A1, A2 on subscription; B sends B1, B2, B3.
        let a = Signal<String, Never>(values: ["A1", "A2"])
        let b = Signal<String, Never>(values: ["B1", "B2", "B3"])
        let log = EventLog<String, Never>()
        a.combineLatest(with: b).map { "\($0)\($1)" }.record(into: log)
        XCTAssertEqual(log.events, [.next("A2B1"), .next("A2B2"), .next("A2B3"), .completed])
    }

    func testCombineLatestOfThreeToSixSignals() {
        let a = Subject<Int, Never>()
        let b = Subject<String, Never>()
        let c = Subject<Bool, Never>()
        let d = Subject<Double, Never>()
        let e = Subject<Int, Never>()
        let f = Subject<String, Never>()
        let three = EventLog<String, Never>()
        let four = EventLog<String, Never>()
        let five = EventLog<String, Never>()
        let six = EventLog<String, Never>()
        Signal.combineLatest(a, b, c).map { "\($0)\($1)\($2)" }.record(into: three)
        Signal.combineLatest(a, b, c, d).map { "\($0)\($1)\($2)\($3)" }.record(into: four)
        Signal.combineLatest(a, b, c, d, e).map { "\($0)\($1)\($2)\($3)\($4)" }.record(into: five)
        Signal.combineLatest(a, b, c, d, e, f).map { "\($0)\($1)\($2)\($3)\($4)\($5)" }.record(into: six)
        a.send(1)
        b.send("b")
        c.send(true)
        d.send(0.5)
        e.send(7)
        f.send("f")
        a.send(2)
        XCTAssertEqual(three.values, ["1btrue", "2btrue"])
        XCTAssertEqual(four.values, ["1btrue0.5", "2btrue0.5"])
        XCTAssertEqual(five.values, ["1btrue0.57", "2btrue0.57"])
        XCTAssertEqual(six.values, ["1btrue0.57f", "2btrue0.57f"])
        for subject in [a, e] { subject.sendCompleted() }
        b.sendCompleted()
        c.sendCompleted()
        XCTAssertEqual(three.events.last, .completed)
        XCTAssertNotEqual(four.events.last, .completed)
        d.sendCompleted()
        XCTAssertEqual(four.events.last, .completed)
        XCTAssertEqual(five.events.last, .completed)
        XCTAssertNotEqual(six.events.last, .completed)
        f.sendCompleted()
        XCTAssertEqual(six.events.last, .completed)
    }

    // MARK: Termination

    func testCombineLatestCompletesOnlyWhenBothInputsCompleted() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        a.combineLatest(with: b).map { $0 + $1 }.record(into: log)
        a.send(1)
        a.sendCompleted()
        XCTAssertEqual(log.events, [])
        b.send(2)
        b.send(3)
        XCTAssertEqual(log.events, [.next(3), .next(4)])
        b.sendCompleted()
        XCTAssertEqual(log.events, [.next(3), .next(4), .completed])
    }

    func testCombineLatestWaitsForAllCompletionsEvenWhenAnInputNeverSentAValue() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        a.combineLatest(with: b).map { $0 + $1 }.record(into: log)
        a.sendCompleted()
        b.send(1)
        XCTAssertEqual(log.events, [])
        b.sendCompleted()
        XCTAssertEqual(log.events, [.completed])
    }

    func testCombineLatestFailsWhenEitherInputFailsAndDisposesTheOther() {
        let a = ProbeSource<Int, TestError>()
        let b = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        Signal.combineLatest(a.signal, b.signal).map { $0 + $1 }.record(into: log)
        a.send(1)
        b.send(2)
        b.sendError(TestError(5))
        a.send(10)
        XCTAssertEqual(log.events, [.next(3), .error(TestError(5))])
        XCTAssertEqual(a.disposals, 1)
        XCTAssertEqual(b.disposals, 1)
    }

    func testDisposingCombineLatestDisposesBothUpstreams() {
        let a = ProbeSource<Int, Never>()
        let b = ProbeSource<Int, Never>()
        let log = EventLog<Int, Never>()
        let subscription = a.signal.combineLatest(with: b.signal).map { $0 + $1 }.record(into: log)
        XCTAssertEqual(a.subscriptions, 1)
        XCTAssertEqual(b.subscriptions, 1)
        a.send(1)
        b.send(1)
        subscription.dispose()
        XCTAssertEqual(a.disposals, 1)
        XCTAssertEqual(b.disposals, 1)
        a.send(5)
        b.send(5)
        XCTAssertEqual(log.events, [.next(2)])
    }

    func testCombineLatestWithAnInputFailingOnSubscriptionDoesNotSubscribeTheNext() {
        let b = ProbeSource<Int, TestError>()
        let log = EventLog<(Int, Int), TestError>()
        Signal<Int, TestError>(error: TestError(2)).combineLatest(with: b.signal).record(into: log)
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.events.first?.error, TestError(2))
        XCTAssertEqual(b.subscriptions, 0)
    }

    // MARK: Arrays

    func testCombineLatestOfArraySendsArraysInInputOrder() {
        let subjects = (0..<3).map { _ in Subject<Int, Never>() }
        let log = EventLog<[Int], Never>()
        Signal.combineLatest(subjects).record(into: log)
        subjects[2].send(3)
        subjects[0].send(1)
        XCTAssertEqual(log.values, [])
        subjects[1].send(2)
        subjects[0].send(10)
        XCTAssertEqual(log.values, [[1, 2, 3], [10, 2, 3]])
    }

    func testCombineLatestOfEmptyArrayCompletesAtOnce() {
        let log = EventLog<[Int], Never>()
        Signal.combineLatest([Signal<Int, Never>]()).record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testCombineLatestOfOneSignalSendsOneElementArrays() {
        // RAC spec: "should return tuples even when only combining one signal".
        let subject = Subject<String, Never>()
        let log = EventLog<[String], Never>()
        Signal.combineLatest([subject]).record(into: log)
        subject.send("foo")
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(["foo"]), .completed])
    }

    func testCombineLatestOfArrayCompletesOnlyAfterAllInputsComplete() {
        // RAC spec: "should only complete after all its signals complete".
        let subjects = (0..<3).map { _ in Subject<Int, Never>() }
        let log = EventLog<[Int], Never>()
        Signal.combineLatest(subjects).record(into: log)
        subjects[0].sendCompleted()
        subjects[1].sendCompleted()
        XCTAssertEqual(log.events, [])
        subjects[2].sendCompleted()
        XCTAssertEqual(log.events, [.completed])
    }

    func testCombineLatestOfArrayHandlesTheSameSignalTwice() {
        // RAC spec: "should handle multiples of the same signals".
        let s1 = Subject<String, Never>()
        let s2 = Subject<String, Never>()
        let s3 = Subject<String, Never>()
        let log = EventLog<String, Never>()
        Signal.combineLatest([s1, s2, s1, s3]).map { "\($0[0]) : \($0[1]) = \($0[2]) : \($0[3])" }.record(into: log)
        s1.send("apples")
        s2.send("oranges")
        XCTAssertEqual(log.values, [])
        s3.send("cattle")
        s1.send("horses")
        XCTAssertEqual(
            log.values,
            [
                "apples : oranges = apples : cattle", "horses : oranges = apples : cattle",
                "horses : oranges = horses : cattle",
            ])
    }

    func testCombineLatestOfArrayFailsOnAnyErrorAndDisposesAllInputs() {
        let probes = (0..<3).map { _ in ProbeSource<Int, TestError>() }
        let log = EventLog<[Int], TestError>()
        Signal.combineLatest(probes.map(\.signal)).record(into: log)
        probes[0].send(1)
        probes[1].sendError(TestError(9))
        probes[2].send(3)
        XCTAssertEqual(log.events, [.error(TestError(9))])
        XCTAssertEqual(probes.map(\.disposals), [1, 1, 1])
    }

    func testCombineLatestOfArrayStopsSubscribingAfterASynchronousError() {
        let later = ProbeSource<Int, TestError>()
        let log = EventLog<[Int], TestError>()
        Signal.combineLatest([Signal<Int, TestError>(value: 1), Signal(error: TestError(3)), later.signal])
            .record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(3))])
        XCTAssertEqual(later.subscriptions, 0)
    }

    func testDisposingCombineLatestOfArrayDisposesEveryInput() {
        let probes = (0..<4).map { _ in ProbeSource<Int, Never>() }
        let subscription = Signal.combineLatest(probes.map(\.signal)).subscribe()
        XCTAssertEqual(probes.map(\.subscriptions), [1, 1, 1, 1])
        subscription.dispose()
        XCTAssertEqual(probes.map(\.disposals), [1, 1, 1, 1])
    }

    // MARK: Lifetimes

    func testCombineLatestReleasesClosuresAfterCompletion() {
        weak var weakTracked: Tracked?
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            a.combineLatest(with: b).map { _ in tracked.id }.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        a.sendCompleted()
        XCTAssertNotNil(weakTracked)
        b.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    func testCombineLatestReleasesClosuresAfterDisposal() {
        weak var weakTracked: Tracked?
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let subscription: any Disposable
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = a.combineLatest(with: b).subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        subscription.dispose()
        XCTAssertNil(weakTracked)
    }

    func testCombineLatestEndsQuietlyWhenAllItsInputsAreGone() {
        weak var weakTracked: Tracked?
        weak var weakSubject: Subject<Int, Never>?
        let log = EventLog<Int, Never>()
        var subscription: (any Disposable)?
        do {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            weakSubject = a
            let tracked = Tracked()
            weakTracked = tracked
            subscription = a.combineLatest(with: b).map { $0 + $1 + tracked.id }.record(into: log)
            a.send(1)
            b.send(2)
        }
        // Nobody can send any more: the subscription ends and frees its closures.
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakTracked)
        XCTAssertEqual(subscription?.isDisposed, true)
        XCTAssertEqual(log.events, [.next(3)])
        subscription = nil
    }

    // MARK: Reentrancy

    func testObserverCompletingItsOwnSourceInsideTheCallbackDoesNotDeadlock() {
        // ReactiveSwift #470: completing an input of combineLatest from its observer hung.
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        a.combineLatest(with: b).map { $0 + $1 }.subscribeEvents { event in
            log.append(event)
            if case .next = event {
                a.sendCompleted()
                b.sendCompleted()
            }
        }
        a.send(1)
        b.send(2)
        XCTAssertEqual(log.events, [.next(3), .completed])
    }

    func testSendingIntoAnInputFromTheObserverIsDeliveredAfterTheCurrentEvent() {
        expectLiveSubscriptions("the observer captures its own input subject")
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        a.combineLatest(with: b).map { $0 * 10 + $1 }.subscribe(next: { value in
            log.append(.next(value))
            if value == 11 { a.send(2) }  // reentrant: queued behind this event
            log.append(.next(-value))
        })
        a.send(1)
        b.send(1)
        XCTAssertEqual(log.values, [11, -11, 21, -21])
    }

    func testDisposingFromInsideTheCallbackStopsDelivery() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let holder = DisposableHolder()
        holder.disposable = a.combineLatest(with: b).map { $0 + $1 }.subscribe(next: { value in
            log.append(.next(value))
            holder.disposable?.dispose()
        })
        a.send(1)
        b.send(1)
        b.send(2)
        a.sendCompleted()
        b.sendCompleted()
        XCTAssertEqual(log.events, [.next(2)])
    }

    // MARK: The RAC tutorials' login form

    func testLoginFormEnablesSignInOnlyWhenUsernameAndPasswordAreBothValid() {
        let usernameText = BehaviorSubject<String, Never>(value: "")
        let passwordText = BehaviorSubject<String, Never>(value: "")
        let validUsername = usernameText.map { $0.count > 3 }
        let validPassword = passwordText.map { $0.count > 3 }
        let signInEnabled = BehaviorSubject<Bool, Never>(value: true)
        Signal.combineLatest(validUsername, validPassword).map { $0 && $1 }.subscribe(signInEnabled)

        XCTAssertFalse(signInEnabled.value)
        usernameText.send("user")
        XCTAssertFalse(signInEnabled.value)
        passwordText.send("pa")
        XCTAssertFalse(signInEnabled.value)
        passwordText.send("pass")
        XCTAssertTrue(signInEnabled.value)
        usernameText.send("usr")
        XCTAssertFalse(signInEnabled.value)
    }

    // MARK: Threads

    func testCombineLatestFedFromManyThreadsDeliversSeriallyWithExactCounts() {
        let perThread = 2_000
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let detector = OverlapDetector()
        let received = Counter()
        let last = EventLog<(Int, Int), Never>()
        a.combineLatest(with: b).subscribeEvents { event in
            detector.enter()
            if case .next = event { received.increment() } else { last.append(event) }
            detector.leave()
        }
        a.send(0)
        b.send(0)
        runThreads(4) { index in
            let subject = index.isMultiple(of: 2) ? a : b
            for value in 1...perThread { subject.send(value) }
        }
        a.sendCompleted()
        b.sendCompleted()
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(received.value, 1 + 4 * perThread)
        XCTAssertEqual(last.count, 1)
    }

    func testCombineLatestOfArrayFedFromManyThreadsDeliversSeriallyWithExactCounts() {
        let perThread = 1_000
        let subjects = (0..<4).map { _ in Subject<Int, Never>() }
        let detector = OverlapDetector()
        let received = Counter()
        let sums = EventLog<Int, Never>()
        Signal.combineLatest(subjects).subscribe(next: { values in
            detector.enter()
            received.increment()
            if values.allSatisfy({ $0 == perThread }) { sums.append(.next(values.reduce(0, +))) }
            detector.leave()
        })
        for subject in subjects { subject.send(0) }
        runThreads(4) { index in
            for value in 1...perThread { subjects[index].send(value) }
        }
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(received.value, 1 + 4 * perThread)
        XCTAssertEqual(sums.values, [4 * perThread])
    }

    func testDisposingWhileOtherThreadsSendStopsDeliveryWhenDisposeReturns() {
        for _ in 0..<20 {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            let afterDispose = Counter()
            let disposed = UncheckedBox(AnyDisposable())
            let subscription = a.combineLatest(with: b).subscribe(next: { _ in
                if disposed.value.isDisposed { afterDispose.increment() }
            })
            a.send(0)
            b.send(0)
            let box = UncheckedBox(subscription)
            runThreads(3) { index in
                if index == 0 {
                    box.value.dispose()
                    disposed.value.dispose()
                } else {
                    for value in 0..<500 { (index == 1 ? a : b).send(value) }
                }
            }
            XCTAssertEqual(afterDispose.value, 0)
        }
    }
}

/// Holds a subscription so its own callback can dispose it.
final class DisposableHolder: @unchecked Sendable {
    var disposable: (any Disposable)?
}
