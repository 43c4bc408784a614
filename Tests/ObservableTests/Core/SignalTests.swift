import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class SignalTests: ResourceCheckedTestCase {
    func testCreatedSignalRunsRecipeOncePerSubscription() {
        let runs = Counter()
        let signal = Signal<Int, Never> { observer in
            runs.increment()
            observer.send(1)
            observer.sendCompleted()
            return nil
        }
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        signal.record(into: first)
        XCTAssertEqual(runs.value, 1)
        signal.record(into: second)
        XCTAssertEqual(runs.value, 2)
        XCTAssertEqual(first.events, [.next(1), .completed])
        XCTAssertEqual(second.events, [.next(1), .completed])
    }

    func testNothingIsDeliveredAfterCompletion() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError> { observer in
            observer.send(1)
            observer.sendCompleted()
            observer.send(2)
            observer.sendError(TestError())
            observer.sendCompleted()
            return nil
        }.record(into: log)
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testNothingIsDeliveredAfterError() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError> { observer in
            observer.sendError(TestError(7))
            observer.send(2)
            observer.sendCompleted()
            return nil
        }.record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(7))])
    }

    func testTerminalEventDisposesTheRecipesDisposable() {
        let disposed = Counter()
        Signal<Int, Never> { observer in
            observer.sendCompleted()
            return AnyDisposable { disposed.increment() }
        }.subscribe()
        XCTAssertEqual(disposed.value, 1)
    }

    func testDisposingRunsTheRecipesDisposableOnceAndStopsDelivery() {
        let disposed = Counter()
        let holder = ObserverHolder<Int>()
        let log = EventLog<Int, Never>()
        let subscription = Signal<Int, Never> { observer in
            holder.observer = observer
            return AnyDisposable { disposed.increment() }
        }.record(into: log)
        holder.observer?.send(1)
        subscription.dispose()
        subscription.dispose()
        holder.observer?.send(2)
        holder.observer?.sendCompleted()
        XCTAssertEqual(log.events, [.next(1)])
        XCTAssertEqual(disposed.value, 1)
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertEqual(holder.observer?.isDisposed, true)
    }

    func testValueErrorEmptyNeverConstructors() {
        let value = EventLog<Int, TestError>()
        Signal<Int, TestError>(value: 3).record(into: value)
        XCTAssertEqual(value.events, [.next(3), .completed])

        let error = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(2)).record(into: error)
        XCTAssertEqual(error.events, [.error(TestError(2))])

        let empty = EventLog<Int, TestError>()
        Signal<Int, TestError>.empty.record(into: empty)
        XCTAssertEqual(empty.events, [.completed])

        let never = EventLog<Int, TestError>()
        let subscription = Signal<Int, TestError>.never.record(into: never)
        XCTAssertEqual(never.events, [])
        subscription.dispose()
    }

    func testValuesSendsSequenceThenCompletes() {
        let log = EventLog<Int, Never>()
        Signal(values: [4, 5, 6]).record(into: log)
        XCTAssertEqual(log.events, [.next(4), .next(5), .next(6), .completed])
    }

    func testDeferredBuildsSignalPerSubscription() {
        let builds = Counter()
        let signal = Signal<Int, Never>.deferred { () -> Signal<Int, Never> in
            builds.increment()
            return Signal(value: builds.value)
        }
        XCTAssertEqual(builds.value, 0)
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        signal.record(into: log)
        XCTAssertEqual(log.values, [1, 2])
    }

    func testRecipeSendingFromAnotherThreadIsDelivered() {
        let done = expectation(description: "completed")
        let log = EventLog<Int, Never>()
        Signal<Int, Never> { observer in
            DispatchQueue.global().async {
                observer.send(1)
                observer.send(2)
                observer.sendCompleted()
            }
            return nil
        }.subscribeEvents { event in
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
    }

    func testConcurrentSendsIntoOneObserverAreSerializedAndCounted() {
        let holder = ObserverHolder<Int>()
        let detector = OverlapDetector()
        let received = Counter()
        Signal<Int, Never> { observer in
            holder.observer = observer
            return nil
        }.subscribe(next: { _ in
            detector.enter()
            received.increment()
            detector.leave()
        })
        let observer = holder.observer!
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for value in 0..<10_000 { observer.send(value) }
        }
        XCTAssertEqual(received.value, 80_000)
        XCTAssertEqual(detector.overlaps, 0)
    }

    func testReentrantSendIntoOwnObserverIsQueuedInOrder() {
        expectLiveSubscriptions("the observer reaches its own observer")
        let holder = ObserverHolder<Int>()
        let log = EventLog<Int, Never>()
        Signal<Int, Never> { observer in
            holder.observer = observer
            return nil
        }.subscribe(next: { value in
            log.append(.next(value))
            if value < 3 { holder.observer?.send(value + 1) }
            log.append(.next(-value))
        })
        holder.observer?.send(1)
        // Each reentrant value arrives after the current callback returned.
        XCTAssertEqual(log.values, [1, -1, 2, -2, 3, -3])
    }

    func testValuesAndEventsSentFromInsideTheCallbackArriveAfterItInOrderAndNothingAfterCompletion() {
        let holder = ObserverHolder<Int>()
        let log = EventLog<Int, Never>()
        Signal<Int, Never> { observer in
            holder.observer = observer
            return nil
        }.subscribeEvents { event in
            log.append(event)
            guard case .next(1) = event else { return }
            holder.observer?.send(event: .next(2))
            holder.observer?.send(3)
            holder.observer?.sendCompleted()
            holder.observer?.send(4)  // queued before the completion was delivered: dropped then
            log.append(.next(-1))
        }
        holder.observer?.send(1)
        holder.observer?.send(5)
        XCTAssertEqual(log.events, [.next(1), .next(-1), .next(2), .next(3), .completed])
        XCTAssertEqual(holder.observer?.isDisposed, true)
    }

    func testAValueSentAfterTheSubscriberDisposedItsSubscriptionFromItsCallbackIsDropped() {
        let holder = ObserverHolder<Int>()
        let subscription = Locked<(any Disposable)?>(nil)
        let log = EventLog<Int, Never>()
        subscription.value = Signal<Int, Never> { observer in
            holder.observer = observer
            return nil
        }.subscribe(next: { value in
            log.append(.next(value))
            subscription.value?.dispose()
            holder.observer?.send(value + 1)
        })
        holder.observer?.send(1)
        holder.observer?.send(event: .next(3))
        holder.observer?.send(4)
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(subscription.value?.isDisposed, true)
    }

    func testAValueOfAnAddressOnlyTypeIsDeliveredIntactAndNotKeptAfterDelivery() {
        // `AnyPayload` holds an `Any`, as `Notification` does: a value the observer must neither leak nor
        // free early on any of its send paths (in place, or queued from inside a callback).
        let holder = ObserverHolder<AnyPayload>()
        let received = Locked<[Int]>([])
        weak var first: Tracked?
        weak var second: Tracked?
        weak var reentrant: Tracked?
        let subscription = Signal<AnyPayload, Never> { observer in
            holder.observer = observer
            return nil
        }.subscribe(next: { payload in
            let tracked = payload.object as? Tracked
            received.mutate { $0.append(tracked?.id ?? -1) }
            if tracked?.id == 1 {
                let queued = Tracked(3)
                reentrant = queued
                holder.observer?.send(AnyPayload(object: queued))
            }
        })
        do {
            let one = Tracked(1)
            first = one
            holder.observer?.send(AnyPayload(object: one))
            let two = Tracked(2)
            second = two
            holder.observer?.send(event: .next(AnyPayload(object: two)))
        }
        XCTAssertEqual(received.value, [1, 3, 2])
        XCTAssertNil(first)
        XCTAssertNil(second)
        XCTAssertNil(reentrant)
        subscription.dispose()
    }

    func testSubscriptionReleasesClosuresAfterCompletion() {
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            Signal<Int, Never>(value: 1).subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNil(weakTracked)
    }

    func testDisposedSubscriptionReleasesClosures() {
        weak var weakTracked: Tracked?
        let holder = ObserverHolder<Int>()
        let subscription: any Disposable
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = Signal<Int, Never> { observer in
                holder.observer = observer
                return nil
            }.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNotNil(weakTracked)
        subscription.dispose()
        XCTAssertNil(weakTracked)
    }

    func testAnonymousPipelineKeepsRunningWithoutStoringDisposable() {
        let holder = ObserverHolder<Int>()
        let log = EventLog<Int, Never>()
        Signal<Int, Never> { observer in
            let queue = DispatchQueue(label: "test")
            let keep = observer
            holder.retain = queue
            holder.observer = keep
            return nil
        }.map { $0 * 2 }.subscribe(next: { log.append(.next($0)) })
        holder.observer?.send(21)
        XCTAssertEqual(log.values, [42])
    }

    func testObserverReleasedByRecipeEndsSubscription() {
        weak var weakTracked: Tracked?
        let subscription: any Disposable
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = Signal<Int, Never> { observer in
                observer.send(1)
                return nil  // the observer is dropped: nobody can send any more
            }.subscribe(next: { _ in _ = tracked })
        }
        XCTAssertNil(weakTracked)
        XCTAssertTrue(subscription.isDisposed)
    }
}

/// A value of an address-only type (it holds an `Any`), like Foundation's `Notification`.
struct AnyPayload {
    let object: Any
}

/// Keeps a recipe's observer for a test to drive.
final class ObserverHolder<Value>: @unchecked Sendable {
    var observer: Observer<Value, Never>?
    var retain: AnyObject?
}
