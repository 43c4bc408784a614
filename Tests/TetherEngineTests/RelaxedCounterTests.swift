import TetherEngine
import XCTest

/// The relaxed number: statistics, unique ids, counts checked against zero, hints.
final class RelaxedCounterTests: XCTestCase {
    func testAddReturnsTheNewValueAndANegativeDeltaSubtracts() {
        let counter = RelaxedCounter()
        XCTAssertEqual(counter.value, 0)
        XCTAssertEqual(counter.add(1), 1)
        XCTAssertEqual(counter.add(5), 6)
        XCTAssertEqual(counter.add(-2), 4)
        XCTAssertEqual(counter.value, 4)
    }

    func testStoreReplacesTheValueAndAStartingValueIsKept() {
        let counter = RelaxedCounter(7)
        XCTAssertEqual(counter.value, 7)
        counter.store(-3)
        XCTAssertEqual(counter.value, -3)
    }

    func testAddingPastTheLargestValueWraps() {
        let counter = RelaxedCounter(Int.max)
        XCTAssertEqual(counter.add(1), Int.min)
    }

    /// The doc comment's use: ids taken from several threads at once are all distinct, and none is lost.
    func testIdsTakenConcurrentlyAreUniqueAndTheCountIsExact() {
        final class Shared: Sendable {
            let counter = RelaxedCounter()
            let ids = LockedState<[Int]>([])
        }
        let threads = 4
        let perThread = 10_000
        let shared = Shared()
        XCTAssertTrue(
            onThreads(threads) { _ in
                var mine: [Int] = []
                mine.reserveCapacity(perThread)
                for _ in 0..<perThread { mine.append(shared.counter.add(1)) }
                shared.ids.withLock { $0 += mine }
            })
        let ids = shared.ids.withLock { $0 }
        XCTAssertEqual(Set(ids).count, threads * perThread)
        XCTAssertEqual(shared.counter.value, threads * perThread)
    }

    /// A count each thread raises and lowers again (a scope's depth) never reads below the reader's own
    /// share, and ends where it started.
    func testAThreadAlwaysSeesItsOwnShareOfACount() {
        final class Shared: Sendable {
            let depth = RelaxedCounter()
            let belowOwnShare = RelaxedCounter()
        }
        let shared = Shared()
        XCTAssertTrue(
            onThreads(4) { _ in
                for _ in 0..<20_000 {
                    shared.depth.add(1)
                    if shared.depth.value < 1 { shared.belowOwnShare.add(1) }
                    shared.depth.add(-1)
                }
            })
        XCTAssertEqual(shared.belowOwnShare.value, 0)
        XCTAssertEqual(shared.depth.value, 0)
    }
}
