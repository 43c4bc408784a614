import TetherEngine
import XCTest

/// State behind the lock in one `Sendable` object.
final class LockedStateTests: XCTestCase {
    func testTheBodyReadsAndChangesTheStateAndItsResultIsReturned() {
        let names = LockedState<[Int: String]>([:])
        names.withLock { $0[1] = "one" }
        let count = names.withLock { names -> Int in
            names[2] = "two"
            return names.count
        }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(names.withLock { $0 }, [1: "one", 2: "two"])
    }

    func testAnErrorThrownByTheBodyReachesTheCallerAndReleasesTheLock() {
        struct Refused: Error {}
        let count = LockedState(0)
        XCTAssertThrowsError(
            try count.withLock { count in
                count += 1
                throw Refused()
            })
        // Locking again returns: the throw released the lock (a leaked lock would park here for good).
        XCTAssertEqual(count.withLock { $0 }, 1)
    }

    func testConcurrentUpdatesFromSeveralThreadsAreNeverLost() {
        let threads = 4
        let updates = 20_000
        let count = LockedState(0)
        XCTAssertTrue(
            onThreads(threads) { _ in
                for _ in 0..<updates { count.withLock { $0 += 1 } }
            })
        XCTAssertEqual(count.withLock { $0 }, threads * updates)
    }

    /// `Sendable` exactly when the state is: a class holding one of `Sendable` state is checked `Sendable`.
    func testItIsSendableWhenItsStateIs() {
        final class Registry: Sendable {
            let entries = LockedState<[String]>([])
        }
        let registry = Registry()
        let sendable: any Sendable = registry
        XCTAssertTrue(sendable is Registry)
        XCTAssertTrue(onThreads(2) { index in registry.entries.withLock { $0.append("\(index)") } })
        XCTAssertEqual(registry.entries.withLock { $0.sorted() }, ["0", "1"])
    }
}
