import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// The flattening operators reuse the link and the lifetime of a synchronous inner signal that has ended for the
/// next inner, once nothing else holds them (issue 20, W5). An inner that runs in a reused lifetime must behave
/// exactly as one in a new lifetime: its values arrive, it is disposed when replaced or when the subscription
/// ends, and its source going away is noticed.
final class FlattenInnerReuseTests: ResourceCheckedTestCase {
    /// An inner whose recipe keeps its observer, to send later.
    private final class KeptInner: @unchecked Sendable {
        let observer = Mutex<Observer<Int, Never>?>(nil)
        let disposals = Mutex(0)

        var signal: Signal<Int, Never> {
            Signal { observer in
                self.observer.withLock { $0 = observer }
                return AnyDisposable { self.disposals.withLock { $0 += 1 } }
            }
        }

        func send(_ value: Int) { observer.withLock { $0 }?.send(value) }
        func complete() { observer.withLock { $0 }?.sendCompleted() }
        func drop() { observer.withLock { $0 = nil } }
    }

    /// `outer` flattened the way `strategy` names: "merge", "latest" or "concat".
    static func flattened(_ outer: Subject<Signal<Int, Never>, Never>, _ strategy: String) -> Signal<Int, Never> {
        switch strategy {
        case "merge": outer.flatten()
        case "latest": outer.switchToLatest()
        default: outer.concat()
        }
    }

    func testAnInnerAfterSynchronousOnesDeliversAndIsDisposedWhenReplaced() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let log = EventLog<Int, Never>()
        let subscription = outer.switchToLatest().record(into: log)
        outer.send(Signal(values: [1, 2]))
        outer.send(Signal(values: [3]))
        let kept = KeptInner()
        outer.send(kept.signal)
        kept.send(4)
        XCTAssertEqual(kept.disposals.withLock { $0 }, 0)
        outer.send(Signal(values: [5]))
        XCTAssertEqual(kept.disposals.withLock { $0 }, 1, "the replaced inner was disposed")
        kept.send(6)
        outer.send(Signal(values: [7]))
        outer.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .next(4), .next(5), .next(7), .completed])
        XCTAssertTrue(subscription.isDisposed)
        kept.drop()
    }

    func testDisposingTheSubscriptionDisposesAnInnerStartedAfterSynchronousOnes() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let log = EventLog<Int, Never>()
        let subscription = outer.switchToLatest().record(into: log)
        for index in 0..<3 { outer.send(Signal(values: [index])) }
        let kept = KeptInner()
        outer.send(kept.signal)
        subscription.dispose()
        XCTAssertEqual(kept.disposals.withLock { $0 }, 1)
        kept.send(9)
        XCTAssertEqual(log.events, [.next(0), .next(1), .next(2)])
        kept.drop()
    }

    func testAnInnerWhoseSourceGoesAwayAfterSynchronousOnesEndsTheResultQuietly() {
        for strategy in ["merge", "latest", "concat"] {
            let outer = Subject<Signal<Int, Never>, Never>()
            let log = EventLog<Int, Never>()
            let result = Self.flattened(outer, strategy)
            let subscription = result.record(into: log)
            outer.send(Signal(values: [1]))
            outer.send(Signal(values: [2]))
            let kept = KeptInner()
            outer.send(kept.signal)
            kept.send(3)
            outer.sendCompleted()
            XCTAssertFalse(subscription.isDisposed, "\(strategy): the live inner keeps it running")
            // The recipe's observer goes away: the inner can never complete, and its lifetime (a reused one)
            // must tell the operator.
            kept.drop()
            XCTAssertEqual(log.events, [.next(1), .next(2), .next(3)], "\(strategy): no completion")
            XCTAssertTrue(subscription.isDisposed, "\(strategy): ended quietly")
        }
    }

    /// An inner that sends and completes on another thread while its start is still running: its events are
    /// queued behind the start, and the operator learns that it ended only after the start returned (no end
    /// notice is added to an inner's lifetime before then). That end must not overtake the queued completion:
    /// the result completes, it does not end quietly.
    func testAnInnerThatCompletesOnAnotherThreadDuringItsStartCompletesTheResultAfterItsQueuedEvents() {
        for strategy in ["merge", "latest", "concat"] {
            let outer = Subject<Signal<Int, Never>, Never>()
            let log = EventLog<Int, Never>()
            let subscription = Self.flattened(outer, strategy).record(into: log)
            outer.send(Signal(values: [1]))
            outer.send(
                Signal { observer in
                    waitOrFail(
                        startThread {
                            observer.send(2)
                            observer.sendCompleted()
                        }, "the inner's thread")
                    return nil
                })
            outer.send(Signal(values: [3]))
            outer.sendCompleted()
            XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed], strategy)
            XCTAssertTrue(subscription.isDisposed, strategy)
        }
    }

    /// An inner whose source goes away (its recipe's observer is released) at the end of its start, after
    /// sending from another thread: the result ends quietly once the outer source has completed, after the
    /// value that was queued.
    func testAnInnerWhoseSourceGoesAwayDuringItsStartEndsTheResultQuietlyAfterItsQueuedValues() {
        for strategy in ["merge", "latest", "concat"] {
            let outer = Subject<Signal<Int, Never>, Never>()
            let log = EventLog<Int, Never>()
            let subscription = Self.flattened(outer, strategy).record(into: log)
            outer.send(Signal(values: [1]))
            outer.send(
                Signal { observer in
                    // The other thread drops its reference itself: when the recipe returns, its own is the last.
                    let held = Mutex<Observer<Int, Never>?>(observer)
                    waitOrFail(
                        startThread {
                            held.withLock { $0 }?.send(2)
                            held.withLock { $0 = nil }
                        }, "the inner's thread")
                    return nil
                })
            outer.sendCompleted()
            XCTAssertEqual(log.events, [.next(1), .next(2)], "\(strategy): no completion")
            XCTAssertTrue(subscription.isDisposed, "\(strategy): ended quietly")
        }
    }

    func testInnersThatEndAfterTheirStartAndInnersWithPartsOfTheirOwnKeepEveryValueInOrder() {
        // Inners completing later (not reusable then), inners with parts of their own (`merge`: their lifetimes
        // hold more than the end notice, so they are never renewed) and plain synchronous ones, interleaved.
        for strategy in ["merge", "latest", "concat"] {
            let outer = Subject<Signal<Int, Never>, Never>()
            let log = EventLog<Int, Never>()
            let result = Self.flattened(outer, strategy)
            let subscription = result.record(into: log)
            var expected: [Int] = []
            for round in 0..<20 {
                let base = round * 10
                outer.send(Signal(values: [base, base + 1]))
                outer.send(Signal(values: [base + 2]).merge(with: Signal(values: [base + 3])))
                let kept = KeptInner()
                outer.send(kept.signal)
                kept.send(base + 4)
                kept.complete()
                kept.drop()
                expected += [base, base + 1, base + 2, base + 3, base + 4]
            }
            outer.sendCompleted()
            XCTAssertEqual(log.events, expected.map { .next($0) } + [.completed], "\(strategy)")
            XCTAssertTrue(subscription.isDisposed, "\(strategy)")
        }
    }

    func testAnInnerFailingAfterSynchronousOnesFailsTheResult() {
        let outer = Subject<Signal<Int, TestError>, TestError>()
        let log = EventLog<Int, TestError>()
        let subscription = outer.switchToLatest().record(into: log)
        outer.send(Signal(values: [1]))
        outer.send(Signal(values: [2]))
        outer.send(Signal(error: TestError()))
        outer.send(Signal(values: [3]))
        XCTAssertEqual(log.events, [.next(1), .next(2), .error(TestError())])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSynchronousInnersSentFromSeveralThreadsEachArriveWholeAndSerialized() {
        // The outer events race for the mailbox: one handles its event in place while the others queue theirs,
        // and the inners started from either path reuse the spare link and lifetime.
        let threads = 4
        let innersPerThread = 300
        let perInner = 5
        for strategy in ["merge", "latest", "concat"] {
            let outer = Subject<Signal<Int, Never>, Never>()
            let result = Self.flattened(outer, strategy)
            let values = Mutex<[Int]>([])
            let completions = Mutex(0)
            let overlap = OverlapDetector()
            let subscription = result.subscribe(
                next: { value in
                    overlap.enter()
                    values.withLock { $0.append(value) }
                    overlap.leave()
                },
                completed: { completions.withLock { $0 += 1 } })
            // A subject of signals is not `Sendable` (a signal is a value holding closures); these signals
            // capture a range only, so sending them from several threads is safe.
            nonisolated(unsafe) let sharedOuter = outer
            runThreads(threads) { thread in
                for index in 0..<innersPerThread {
                    let first = (thread * innersPerThread + index) * perInner
                    sharedOuter.send(Signal(values: first..<first + perInner))
                }
            }
            outer.sendCompleted()
            let received = values.withLock { $0 }
            XCTAssertEqual(overlap.overlaps, 0, "\(strategy): the subscriber was called concurrently")
            XCTAssertEqual(completions.withLock { $0 }, 1, "\(strategy)")
            XCTAssertEqual(received.count, threads * innersPerThread * perInner, "\(strategy)")
            // A synchronous inner runs whole while its outer event is handled: its values arrive together.
            for chunk in stride(from: 0, to: received.count, by: perInner) {
                let first = received[chunk]
                XCTAssertEqual(first % perInner, 0, "\(strategy): an inner's values were split")
                XCTAssertEqual(
                    Array(received[chunk..<min(chunk + perInner, received.count)]), Array(first..<first + perInner))
            }
            XCTAssertEqual(Set(received).count, received.count, "\(strategy): a value arrived twice")
            XCTAssertTrue(subscription.isDisposed, "\(strategy)")
        }
    }
}
