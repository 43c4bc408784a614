import Foundation
import TetherEngine
import XCTest

/// The flag a `CompositeDisposable`'s disposer holds while it disposes the children: set, held, released
/// (staying set), cleared; a waiter parks until the release, and what the holder wrote before releasing is
/// visible to it (under Thread Sanitizer, a release that did not order it would be reported as a race).
final class HeldFlagTests: XCTestCase {
    func testSetHeldReleaseAndClear() {
        let flag = HeldFlag()
        XCTAssertFalse(flag.isSet)
        XCTAssertFalse(flag.isHeld)
        flag.set(held: true)
        XCTAssertTrue(flag.isSet)
        XCTAssertTrue(flag.isHeld)
        XCTAssertFalse(flag.release(), "nobody waited")
        XCTAssertTrue(flag.isSet, "released, still set")
        XCTAssertFalse(flag.isHeld)
        flag.clear()
        XCTAssertFalse(flag.isSet)
        flag.set(held: false)
        XCTAssertTrue(flag.isSet)
        XCTAssertFalse(flag.isHeld)
    }

    func testAWaitOnAReleasedFlagReturnsAtOnceAndLeavesItReleased() {
        let flag = HeldFlag()
        flag.set(held: true)
        XCTAssertFalse(flag.release())
        XCTAssertTrue(flag.waitUntilReleased(by: currentThreadID &+ 2, parkingAt: 0x7E57_0001))
        XCTAssertTrue(flag.isSet)
        XCTAssertFalse(flag.isHeld, "the waiter's mark on a released flag does not make it held")
        flag.set(held: true)
        XCTAssertFalse(flag.release(), "a new holding starts without the earlier waiter's mark")
    }

    /// Waiters on other threads park until the holder releases; the release reports them, and what the
    /// holder wrote before it is visible to each.
    func testWaitersReturnAfterTheReleaseAndSeeWhatTheHolderWrote() {
        final class Shared: @unchecked Sendable {
            // Safety: `payload` is written by the holder before its release and read by the waiters after
            // their wait returned `true` — the ordering under test.
            var payload = 0
            let flag = HeldFlag()
            let holder = LockedState<UInt>(0)
            let reported = LockedState(false)
            let seen = LockedState<[Int]>([])
        }
        for round in 1...100 {
            let shared = Shared()
            shared.flag.set(held: true)
            let address = UInt(bitPattern: ObjectIdentifier(shared).hashValue)
            XCTAssertTrue(
                onThreads(3) { index in
                    if index == 0 {
                        shared.holder.withLock { $0 = currentThreadID }
                        usleep(round % 10 == 0 ? 2_000 : 0)
                        shared.payload = round
                        let woke = shared.flag.release()
                        shared.reported.withLock { $0 = woke }
                        if woke { shared.flag.wakeAll(parkedAt: address) }
                    } else {
                        // The holder's ID as a waiter would read it under the user's lock; a nonzero stand-in
                        // until the holder wrote it (the graph only needs a thread that is not this one).
                        let holder = shared.holder.withLock { $0 == 0 ? currentThreadID &+ 2 : $0 }
                        if shared.flag.waitUntilReleased(by: holder, parkingAt: address) {
                            XCTAssertFalse(shared.flag.isHeld)
                            shared.seen.withLock { $0.append(shared.payload) }
                        }
                    }
                })
            XCTAssertEqual(shared.seen.withLock { $0 }, [round, round], "round \(round)")
        }
    }
}
