import Foundation
import TetherEngine
import XCTest

/// `currentThreadID`: the address of a thread-local of the calling thread (`tether_thread_id()`), which the gates,
/// the lock's owner words and the disposal fence compare against an owner they stored.
final class CurrentThreadIDTests: XCTestCase {
    func testTheIDIsNeverZeroHasBitZeroClearAndStaysTheSameOnOneThread() {
        let id = currentThreadID
        XCTAssertNotEqual(id, 0)
        XCTAssertEqual(id & 1, 0, "bit 0 is the gates' pending flag")
        for _ in 0..<1_000 { XCTAssertEqual(currentThreadID, id) }
    }

    /// Threads running at the same time never share an ID (nor the test thread's).
    func testThreadsRunningTogetherHaveDistinctIDs() {
        // The engine's lock: under `Synchronization.Mutex`, Thread Sanitizer reported these writes as a race.
        let ids = LockedState<[Int: UInt]>([:])
        let recorded = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for index in 0..<16 {
            group.enter()
            // Every thread records its ID, then stays alive until all have recorded theirs: no ID can be reused.
            Thread.detachNewThread {
                ids.withLock { $0[index] = currentThreadID }
                recorded.signal()
                release.wait()
                XCTAssertEqual(ids.withLock { $0[index] }, currentThreadID)
                group.leave()
            }
        }
        for _ in 0..<16 { recorded.wait() }
        let all = ids.withLock { Array($0.values) }
        for _ in 0..<16 { release.signal() }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(all.count, 16)
        XCTAssertEqual(Set(all).count, 16)
        XCTAssertFalse(all.contains(currentThreadID))
        XCTAssertTrue(all.allSatisfy { $0 != 0 && $0 & 1 == 0 })
    }
}
