import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// An inner signal that sends `(tag, 0..<count)` from a background thread, then completes.
private func backgroundInner(tag: Int, count: Int) -> Signal<(Int, Int), Never> {
    Signal { observer in
        DispatchQueue.global().async {
            for index in 0..<count {
                if observer.isDisposed { return }
                observer.send((tag, index))
            }
            observer.sendCompleted()
        }
        return nil
    }
}

/// Thread-safe record of what a subscriber received.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [(Int, Int)] = []
    private var terminals = 0
    let overlap = OverlapDetector()

    var all: [(Int, Int)] { lock.withLock { values } }
    var terminalCount: Int { lock.withLock { terminals } }

    func receive(_ event: Event<(Int, Int), Never>) {
        overlap.enter()
        lock.withLock {
            switch event {
            case .next(let value): values.append(value)
            case .completed: terminals += 1
            }
        }
        overlap.leave()
    }
}

final class FlatteningConcurrencyTests: ResourceCheckedTestCase {
    func testFlatMapSerializesInnersSendingFromSeveralThreads() {
        let inners = 8
        let perInner = 2_000
        let outer = Subject<Int, Never>()
        let received = Received()
        let done = expectation(description: "completed")
        outer.flatMap { backgroundInner(tag: $0, count: perInner) }.subscribeEvents { event in
            received.receive(event)
            if event.isTerminal { done.fulfill() }
        }
        // The outer values themselves also come from several threads.
        DispatchQueue.concurrentPerform(iterations: inners) { outer.send($0) }
        outer.sendCompleted()
        wait(for: [done], timeout: 30)

        XCTAssertEqual(received.overlap.overlaps, 0)
        XCTAssertEqual(received.terminalCount, 1)
        let values = received.all
        XCTAssertEqual(values.count, inners * perInner)
        for tag in 0..<inners {
            // Each inner's own values arrive complete and in order.
            XCTAssertEqual(values.filter { $0.0 == tag }.map(\.1), Array(0..<perInner), "inner \(tag)")
        }
    }

    func testSwitchToLatestWithInnersSendingFromSeveralThreads() {
        let inners = 50
        let perInner = 500
        let outer = Subject<Signal<(Int, Int), Never>, Never>()
        let received = Received()
        let done = expectation(description: "completed")
        outer.switchToLatest().subscribeEvents { event in
            received.receive(event)
            if event.isTerminal { done.fulfill() }
        }
        for tag in 0..<inners { outer.send(backgroundInner(tag: tag, count: perInner)) }
        outer.sendCompleted()
        wait(for: [done], timeout: 30)

        XCTAssertEqual(received.overlap.overlaps, 0)
        XCTAssertEqual(received.terminalCount, 1)
        let values = received.all
        // Never a value from an older inner after one from a newer inner.
        let tags = values.map(\.0)
        XCTAssertEqual(tags, tags.sorted(), "a replaced inner's value was forwarded")
        // The last inner is never replaced: all of its values arrive, in order.
        XCTAssertEqual(values.filter { $0.0 == inners - 1 }.map(\.1), Array(0..<perInner))
    }

    /// Inners started from the outer event as it is (cold ones, which send and end inline during their start)
    /// mixed with inners that send and end on another thread while the outer source goes on sending: every cold
    /// inner's values arrive whole and in order, a replaced inner's never after a newer one's, and the result
    /// completes once.
    func testSwitchToLatestMixingInlineInnersWithInnersEndingOnAnotherThread() {
        let rounds = 300
        let outer = Subject<Signal<(Int, Int), Never>, Never>()
        let received = Received()
        let done = expectation(description: "completed")
        outer.switchToLatest().subscribeEvents { event in
            received.receive(event)
            if event.isTerminal { done.fulfill() }
        }
        for tag in 0..<rounds {
            if tag % 3 == 0 {
                outer.send(backgroundInner(tag: tag, count: 50))
            } else {
                outer.send(Signal(values: (0..<5).map { (tag, $0) }))
            }
        }
        outer.sendCompleted()
        wait(for: [done], timeout: 30)

        XCTAssertEqual(received.overlap.overlaps, 0)
        XCTAssertEqual(received.terminalCount, 1)
        let values = received.all
        let tags = values.map(\.0)
        XCTAssertEqual(tags, tags.sorted(), "a replaced inner's value was forwarded")
        for tag in 0..<rounds where tag % 3 != 0 {
            XCTAssertEqual(values.filter { $0.0 == tag }.map(\.1), Array(0..<5), "cold inner \(tag)")
        }
    }

    func testConcatWithInnersSendingFromSeveralThreadsKeepsTheirOrder() {
        let inners = 10
        let perInner = 300
        let outer = Subject<Int, Never>()
        let received = Received()
        let done = expectation(description: "completed")
        outer.concatMap { backgroundInner(tag: $0, count: perInner) }.subscribeEvents { event in
            received.receive(event)
            if event.isTerminal { done.fulfill() }
        }
        for tag in 0..<inners { outer.send(tag) }
        outer.sendCompleted()
        wait(for: [done], timeout: 30)

        XCTAssertEqual(received.overlap.overlaps, 0)
        XCTAssertEqual(received.terminalCount, 1)
        let expected = (0..<inners).flatMap { tag in (0..<perInner).map { (tag, $0) } }
        XCTAssertTrue(received.all.elementsEqual(expected, by: { $0 == $1 }))
    }

    func testDisposingFromAnotherThreadStopsASynchronousInfiniteInner() {
        // The inner runs forever on a background thread, handled inline inside the flatMap;
        // disposing from the test thread must stop it and deliver nothing after dispose returns.
        for strategy in 0..<3 {
            let outer = Subject<Int, Never>()
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let disposed = AnyDisposable()
            let lateValues = Counter()
            let count = Counter()
            let flattened: Signal<Int, Never>
            switch strategy {
            case 0: flattened = outer.flatMap { _ in Signal<Int, Never>(values: 1...) }
            case 1: flattened = outer.flatMapLatest { _ in Signal<Int, Never>(values: 1...) }
            default: flattened = outer.concatMap { _ in Signal<Int, Never>(values: 1...) }
            }
            let subscription = flattened.subscribe(next: { value in
                if disposed.isDisposed { lateValues.increment() }
                count.increment()
                if value == 1_000 { started.signal() }
            })
            DispatchQueue.global().async {
                outer.send(0)
                finished.signal()
            }
            started.wait()
            subscription.dispose()
            disposed.dispose()
            XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "strategy \(strategy) did not stop")
            XCTAssertEqual(lateValues.value, 0)
            XCTAssertGreaterThanOrEqual(count.value, 1_000)
        }
    }

    func testDisposingWhileInnersSendFromSeveralThreadsDeliversNothingAfterwards() {
        let outer = Subject<Int, Never>()
        let group = DispatchGroup()
        let disposed = AnyDisposable()
        let lateValues = Counter()
        let overlap = OverlapDetector()
        let enough = DispatchSemaphore(value: 0)
        let count = Counter()
        let subscription = outer.flatMap { _ in
            Signal<Int, Never> { observer in
                group.enter()
                DispatchQueue.global().async {
                    var index = 0
                    while !observer.isDisposed {
                        observer.send(index)
                        index += 1
                    }
                    group.leave()
                }
                return nil
            }
        }.subscribe(next: { _ in
            overlap.enter()
            if disposed.isDisposed { lateValues.increment() }
            count.increment()
            if count.value == 5_000 { enough.signal() }
            overlap.leave()
        })
        // Whichever thread owns the flatMap's mailbox drains what the producers post for as long
        // as they post, so the outer values are sent from a background thread, not this one.
        DispatchQueue.global().async {
            for tag in 0..<4 { outer.send(tag) }
        }
        enough.wait()
        subscription.dispose()
        disposed.dispose()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(lateValues.value, 0)
        XCTAssertEqual(overlap.overlaps, 0)
    }
}
