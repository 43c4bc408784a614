import TetherEngine
import XCTest

/// `SerializedCallbacks`: a subscriber's callbacks, called one thread at a time; debug builds mark each
/// call so that an overlapping one traps.
final class SerializedCallbacksTests: XCTestCase {
    func testACallGetsTheCallbacksAndReturnsWhatTheBodyReturns() {
        var received: [Int] = []
        let callbacks = SerializedCallbacks<(Int) -> Int> { value in
            received.append(value)
            return value * 2
        }
        XCTAssertEqual(callbacks.call { $0(3) }, 6)
        XCTAssertEqual(callbacks.call { $0(4) }, 8)
        XCTAssertEqual(received, [3, 4])
    }

    #if DEBUG
        func testACallIsMarkedWhileItRunsAndNotAfter() {
            let callbacks = SerializedCallbacks<() -> Void> {}
            XCTAssertFalse(callbacks.isInCall)
            let during = callbacks.call { _ in callbacks.isInCall }
            XCTAssertTrue(during, "marked while the body runs: a second call would trap")
            XCTAssertFalse(callbacks.isInCall, "unmarked once it returns")
        }

        /// Calls handed from thread to thread, one at a time (as a source's gate hands them over), never
        /// find the mark of another; and each sees the last one's write.
        func testCallsHandedBetweenThreadsOneAtATimeDoNotTrap() {
            final class Entry: Sendable {
                let callbacks: SerializedCallbacks<() -> Void>
                init(_ body: @escaping () -> Void) { callbacks = SerializedCallbacks(body) }
            }
            final class Count: @unchecked Sendable {
                // Safety: touched only inside `entry.callbacks.call`, which `lock` serializes.
                var value = 0
            }
            let count = Count()
            let entry = Entry { count.value += 1 }
            let lock = NSLock()
            let finished = onThreads(4) { _ in
                for _ in 0..<5_000 {
                    lock.lock()
                    entry.callbacks.call { $0() }
                    lock.unlock()
                }
            }
            XCTAssertTrue(finished)
            XCTAssertEqual(count.value, 20_000)
        }
    #endif
}
