import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Regression tests for bugs that other reactive libraries shipped (their issue numbers in the
/// comments). Behaviours already covered by the operator tests are listed in README.md next to this
/// file rather than tested twice.
final class ReliabilityRegressionTests: ResourceCheckedTestCase {
    // MARK: Events after a terminal event while other threads still send (ReactiveSwift #108, #123)

    func testNoEventReachesASubjectsSubscriberAfterTheTerminalEventWhileOtherThreadsKeepSending() {
        for round in 0..<StressScale.scaled(50) {
            let subject = Subject<Int, Never>()
            let monitor = GrammarMonitor<Int>()
            let downstream = GrammarMonitor<Int>()
            _ = monitor.subscribe(to: subject)
            _ = downstream.subscribe(to: subject.map { $0 + 1 }.filter { _ in true })
            runThreads(4) { index in
                for value in 0..<2_000 {
                    if index == 0 && value == 1_000 { subject.sendCompleted() }
                    subject.send(value)
                }
            }
            monitor.assertWellFormed("round \(round), subscriber")
            downstream.assertWellFormed("round \(round), map/filter")
            XCTAssertEqual(monitor.terminalCount, 1)
            XCTAssertEqual(downstream.terminalCount, 1)
        }
    }

    func testNoEventReachesAnObserversSubscriberAfterTheTerminalEventWhileOtherThreadsKeepSending() {
        for round in 0..<StressScale.scaled(50) {
            let shared = ObserverSlot<Int>()
            let monitor = GrammarMonitor<Int>()
            _ = monitor.subscribe(
                to: Signal<Int, Never> { observer in
                    shared.observer = observer
                    return nil
                }.map { $0 * 2 })
            let observer = shared.observer!
            runThreads(4) { index in
                for value in 0..<2_000 {
                    if index == 1 && value == 500 { observer.sendCompleted() }
                    observer.send(value)
                }
            }
            monitor.assertWellFormed("round \(round)")
            XCTAssertEqual(monitor.terminalCount, 1)
        }
    }

    func testMergeSendsNothingAfterItFailedWhileItsOtherInputsKeepSendingFromOtherThreads() {
        for round in 0..<StressScale.scaled(50) {
            let inputs = (0..<4).map { _ in Subject<Int, TestError>() }
            let monitor = GrammarMonitor<Int>()
            _ = monitor.subscribe(to: Signal.merge(inputs).catch { _ in Signal<Int, Never>.empty })
            runThreads(4) { index in
                for value in 0..<1_000 {
                    if index == 2 && value == 300 { inputs[2].sendError(TestError()) }
                    inputs[index].send(value)
                }
            }
            monitor.assertWellFormed("round \(round)")
            XCTAssertEqual(monitor.terminalCount, 1)
        }
    }

    // MARK: A closure whose deinit sends a terminal event while it is being disposed
    // (ReactiveSwift #267, OpenCombine #208)

    func testACleanupWhoseDeinitSendsCompletionWhileTheSubscriptionIsDisposedNeitherDeadlocksNorDeliversIt() {
        let log = EventLog<Int, Never>()
        let subscription = Signal<Int, Never> { observer in
            observer.send(1)
            let token = DeinitAction { observer.sendCompleted() }
            return AnyDisposable { withExtendedLifetime(token) {} }
        }.map { $0 }.record(into: log)
        subscription.dispose()  // releases the cleanup closure, whose token then sends into the observer
        XCTAssertEqual(log.events, [.next(1)], "nothing is delivered once dispose() has begun")
    }

    func testAnObserverClosureWhoseDeinitCompletesItsOwnSubjectDuringDisposalNeitherDeadlocksNorLosesTheCompletion() {
        let subject = Subject<Int, Never>()
        let others = EventLog<Int, Never>()
        subject.record(into: others)
        let subscription: any Disposable
        do {
            let token = DeinitAction { subject.sendCompleted() }
            subscription = subject.subscribe(next: { _ in withExtendedLifetime(token) {} })
        }
        subject.send(1)
        let finished = expectation(description: "dispose returned")
        DispatchQueue.global().async {
            subscription.dispose()  // frees the closure: its token's deinit completes the subject
            finished.fulfill()
        }
        wait(for: [finished], timeout: 5)
        waitUntil { others.events.last == .completed }
        XCTAssertEqual(others.events, [.next(1), .completed])
    }

    func testATerminalEventSentFromADeinitRunningInsideADeliveryIsDeliveredOnceAfterIt() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        var token: DeinitAction? = DeinitAction { subject.sendCompleted() }
        subject.subscribe(next: { value in
            log.append(.next(value))
            token = nil  // the deinit sends a reentrant completion: queued after this delivery
        })
        subject.send(1)
        subject.send(2)
        XCTAssertNil(token)
        XCTAssertEqual(log.events, [.next(1)], "the completion came first; 2 was sent after it")
        let late = EventLog<Int, Never>()
        subject.record(into: late)
        XCTAssertEqual(late.events, [.completed])
    }

    // MARK: Never call out while holding a lock: the "foreign lock" harness
    // (RxSwift #1323, #1992, #2698–#2713: a replayed value delivered under a lock deadlocks with
    // flatMap or a second replay)

    /// Thread B is inside a callback of the pipeline and needs `lock`; thread A holds `lock` and sends
    /// into the pipeline. A library that delivers under its own lock, or makes A wait for B's callback,
    /// deadlocks here; Tether must queue A's send and return.
    func assertNoForeignLockDeadlock(
        _ name: String, rounds: Int = 20, file: StaticString = #filePath, line: UInt = #line,
        build: (_ callback: @escaping @Sendable () -> Void) -> (
            startB: @Sendable () -> Void, sendA: @Sendable () -> Void
        )
    ) {
        for round in 0..<rounds {
            let lock = NSLock()
            let inCallback = DispatchSemaphore(value: 0)
            let aHoldsLock = DispatchSemaphore(value: 0)
            let once = Atomic<Bool>(false)
            let (startB, sendA) = build {
                guard !once.exchange(true, ordering: .relaxed) else { return }
                inCallback.signal()
                aHoldsLock.wait()
                lock.lock()  // blocks until A's send has returned and A unlocked
                lock.unlock()
            }
            let bothDone = DispatchGroup()
            bothDone.enter()
            Thread {
                startB()
                bothDone.leave()
            }.start()
            bothDone.enter()
            Thread {
                inCallback.wait()
                lock.lock()
                aHoldsLock.signal()
                sendA()
                lock.unlock()
                bothDone.leave()
            }.start()
            if bothDone.wait(timeout: .now() + 5) == .timedOut {
                XCTFail("\(name), round \(round): deadlock with a foreign lock", file: file, line: line)
                return
            }
        }
    }

    func testASubjectSendUnderAForeignLockDoesNotWaitForACallbackNeedingThatLock() {
        assertNoForeignLockDeadlock("Subject") { callback in
            let subject = Subject<Int, Never>()
            subject.subscribe(next: { _ in callback() })
            return ({ subject.send(1) }, { subject.send(2) })
        }
    }

    func testAReplaySubjectsReplayNeedingAForeignLockDoesNotBlockASendUnderThatLock() {
        assertNoForeignLockDeadlock("ReplaySubject") { callback in
            let subject = ReplaySubject<Int, Never>()
            subject.send(1)
            // B's callback runs during the replay, inside subscribe.
            return ({ subject.subscribe(next: { _ in callback() }) }, { subject.send(2) })
        }
    }

    func testAReplayedValueNeedingAForeignLockDoesNotBlockASendIntoTheReplayedSourceUnderThatLock() {
        assertNoForeignLockDeadlock("replay() + flatMap") { callback in
            let source = Subject<Int, Never>()
            let replayed = UncheckedBox(source.replayLast())
            let second = UncheckedBox(source.map { $0 * 10 }.replay())
            source.send(1)
            return (
                {
                    replayed.value.flatMap { _ in second.value }.subscribe(next: { _ in callback() })
                },
                { source.send(2) }
            )
        }
    }

    func testReplayLazilyNeedingAForeignLockDoesNotBlockAnotherSubscriberUnderThatLock() {
        assertNoForeignLockDeadlock("replayLazily") { callback in
            let replayed = UncheckedBox(Signal<Int, Never>(values: [1, 2, 3]).replayLazily())
            return (
                { replayed.value.subscribe(next: { _ in callback() }) },
                { replayed.value.subscribe(next: { _ in }) }
            )
        }
    }

    func testCombineLatestAndZipCallbacksNeedingAForeignLockDoNotBlockASendUnderThatLock() {
        for kind in ["combineLatest", "zip", "merge", "switchToLatest"] {
            assertNoForeignLockDeadlock(kind) { callback in
                let a = Subject<Int, Never>()
                let b = Subject<Int, Never>()
                let combined: Signal<Int, Never>
                switch kind {
                case "combineLatest": combined = Signal.combineLatest(a, b).map { $0 + $1 }
                case "zip": combined = Signal.zip(a, b).map { $0 + $1 }
                case "merge": combined = a.merge(with: b)
                default: combined = a.flatMapLatest { _ in b.startWith(0) }
                }
                combined.subscribe(next: { _ in callback() })
                if kind != "merge" && kind != "switchToLatest" { b.send(0) }
                return ({ a.send(1) }, { b.send(2) })
            }
        }
    }

    func testADeliverOnCallbackNeedingAForeignLockDoesNotBlockASendUnderThatLock() {
        assertNoForeignLockDeadlock("deliver(on:)") { callback in
            let subject = Subject<Int, Never>()
            subject.deliver(on: QueueScheduler(name: "foreign-lock")).subscribe(next: { _ in callback() })
            return ({ subject.send(1) }, { subject.send(2) })
        }
    }

    // MARK: take(1) + replayLast() + zip, 1,000 subscriptions through deliver(on:) (RxSwift #2653)

    func testTakeOneReplayLastZipWithAThousandSubscriptionsThroughDeliverOnAllComplete() {
        let source = Subject<Int, Never>()
        let shared = UncheckedBox(source.take(1).replayLast())
        let scheduler = QueueScheduler(name: "rx2653")
        let completions = Atomic<Int>(0)
        let allCompleted = expectation(description: "1,000 subscriptions completed")
        let subscriptions = 1_000
        runThreads(4) { thread in
            for index in stride(from: thread, to: subscriptions, by: 4) {
                if index == subscriptions / 2 { source.send(7) }
                Signal.zip(shared.value, shared.value.map { $0 + 1 })
                    .deliver(on: scheduler)
                    .subscribe(completed: {
                        if completions.add(1, ordering: .relaxed).newValue == subscriptions { allCompleted.fulfill() }
                    })
            }
        }
        source.send(8)
        wait(for: [allCompleted], timeout: 5)
    }

    // MARK: Long-lived subscriptions do not keep finished children (RxSwift #2364)

    func testLongLivedSubscriptionsDoNotAccumulateTheLifetimesOfFinishedParts() throws {
        let outer = Subject<Int, TestError>()
        let failing = Signal<Int, TestError>(error: TestError())
        let pipelines: [(String, Signal<Int, TestError>)] = [
            ("flatMap", outer.flatMap { Signal(value: $0) }),
            ("concatMap", outer.concatMap { Signal(value: $0) }),
            ("flatMapLatest", outer.flatMapLatest { Signal(value: $0) }),
            ("retry", Signal<Int, TestError>.deferred { Signal(error: TestError()) }.retry(1_000).catch { _ in outer }),
            ("concat", Signal<Int, TestError>(value: 0).concat(outer)),
            ("merge", Signal.merge([Signal(value: 0), outer.signal])),
            ("combineLatest", Signal.combineLatest(Signal(value: 0), outer).map { $0 + $1 }),
            ("take(until:) with a failing trigger", outer.take(until: failing)),
        ]
        for (name, pipeline) in pipelines {
            let subscription = pipeline.subscribe(next: { _ in })
            let lifetime = try XCTUnwrap(subscription as? CompositeDisposable)
            for value in 0..<1_000 { outer.send(value) }
            XCTAssertLessThanOrEqual(lifetime.count, 4, "\(name): finished parts are kept")
            subscription.dispose()
        }
    }

    func testACompositeDisposableDoesNotKeepChildrenThatWereDisposedElsewhere() throws {
        let bag = CompositeDisposable()
        let subject = Subject<Int, Never>()
        for value in 0..<1_000 {
            subject.take(1).subscribe(next: { _ in }).disposed(by: bag)
            subject.send(value)  // completes (and disposes) the subscription just added
        }
        let disposedAlready = AnyDisposable()
        disposedAlready.dispose()
        bag.add(disposedAlready)
        XCTAssertEqual(bag.count, 0, "children that were already disposed are not kept")
    }

    // MARK: Dispose from another thread while threads flood a subject

    func testDisposeFromAnotherThreadReturnsPromptlyWhileThreadsFloodTheSubject() throws {
        let subject = Subject<Int, Never>()
        let stop = Flag()
        let delivered = Counter()
        let backlog = DispatchSemaphore(value: 0)
        subject.subscribe(next: { _ in
            delivered.increment()
            if delivered.value == 20_000 { backlog.signal() }
        })
        let disposed = expectation(description: "dispose() returned")
        let flooders = DispatchGroup()
        for _ in 0..<8 {
            flooders.enter()
            Thread {
                var value = 0
                while !stop.isRaised {
                    subject.send(value)
                    value &+= 1
                }
                flooders.leave()
            }.start()
        }
        waitOrFail(backlog, "20,000 deliveries (the flood is on)")
        let subscription = UncheckedBox(subject.subscribe(next: { _ in }))
        Thread {
            subscription.value.dispose()
            disposed.fulfill()
        }.start()
        wait(for: [disposed], timeout: 2)
        stop.raise()
        flooders.wait()
    }
}

/// Runs an action when deinitialized.
final class DeinitAction: @unchecked Sendable {
    private let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}

/// Hands a created signal's observer to the test.
final class ObserverSlot<Value>: @unchecked Sendable {
    var observer: Observer<Value, Never>?
}
