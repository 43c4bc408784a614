import TetherEngine
import XCTest

/// The serial gate's state word: its four states (idle, owned, owned with work pending, handed off) and
/// the transitions between them, without a gate around it.
final class GateWordTests: XCTestCase {
    private let me = currentThreadID
    private let other = currentThreadID &+ 64  // another thread's ID: never 0, bit 0 clear

    func testAnIdleWordIsTakenByTheFirstTakerOnly() {
        let word = GateWord()
        XCTAssertEqual(word.state, 0)
        XCTAssertTrue(word.tryTakeIdle(by: me))
        XCTAssertTrue(word.isOwned(by: me))
        XCTAssertFalse(word.isOwned(by: other))
        XCTAssertEqual(word.ownerSequentiallyConsistent, me)
        XCTAssertFalse(word.tryTakeIdle(by: other), "owned: not idle")
        XCTAssertEqual(word.state, me)
    }

    func testReleaseSucceedsOnlyWhileNothingIsPending() {
        let word = GateWord()
        XCTAssertTrue(word.tryTakeIdle(by: me))
        XCTAssertTrue(word.tryRelease(by: me))
        XCTAssertEqual(word.state, 0, "idle again")

        XCTAssertTrue(word.tryTakeIdle(by: me))
        let marked = word.tryMarkPending(replacing: me)
        XCTAssertTrue(marked.marked)
        XCTAssertEqual(marked.found, me)
        XCTAssertEqual(word.state, me | 1)
        XCTAssertTrue(word.isOwned(by: me), "the pending bit is not part of the owner")
        XCTAssertFalse(word.tryRelease(by: me), "work is pending: the owner must take it first")
        // The owner takes the queued work under the lock: its own again, the bit cleared.
        word.release(underLock: me)
        XCTAssertTrue(word.tryRelease(by: me))
        XCTAssertEqual(word.stateAcquiring, 0)
    }

    func testMarkingPendingFailsAndReportsTheWordWhenItChanged() {
        let word = GateWord()
        XCTAssertTrue(word.tryTakeIdle(by: other))
        let stale = word.tryMarkPending(replacing: me)
        XCTAssertFalse(stale.marked, "expected another state: nothing changes")
        XCTAssertEqual(stale.found, other)
        XCTAssertEqual(word.state, other)
    }

    func testAHandedOffWordIsOwnerlessWithWorkPendingUntilSomeoneTakesIt() {
        let word = GateWord()
        XCTAssertTrue(word.tryTakeIdle(by: other))
        word.release(underLock: 1)  // left to the parked senders
        XCTAssertEqual(word.ownerSequentiallyConsistent, 0, "no owner")
        XCTAssertFalse(word.isOwned(by: other))
        XCTAssertFalse(word.tryTakeIdle(by: me), "handed off is not idle: a lock-free taker stays out")
        let idleTake = word.tryTake(underLock: me, replacing: 0)
        XCTAssertFalse(idleTake.taken)
        XCTAssertEqual(idleTake.found, 1)
        let taken = word.tryTake(underLock: me | 1, replacing: 1)
        XCTAssertTrue(taken.taken, "a woken sender takes it over, with the work still pending")
        XCTAssertEqual(word.state, me | 1)
    }

    func testSetUnderLockTakesAnIdleWordAndMarksTheOwnersOwnPending() {
        let word = GateWord()
        word.set(underLock: me)
        XCTAssertTrue(word.isOwned(by: me))
        word.set(underLock: me | 1)  // a reentrant submission on an ordered gate
        XCTAssertFalse(word.tryRelease(by: me))
        word.release(underLock: 0)
        XCTAssertEqual(word.state, 0)
    }

    /// Threads racing to take an idle word: exactly one owns it at a time, so a plain counter incremented only
    /// by the owner loses nothing (under Thread Sanitizer, a word that did not order the owners would be a race).
    func testOwnersTakingTheWordLockFreeNeverOverlap() {
        final class Shared: @unchecked Sendable {
            // Safety: `count` is touched only by the word's owner — the exclusion under test.
            let word = GateWord()
            var count = 0
        }
        let shared = Shared()
        XCTAssertTrue(
            onThreads(4) { _ in
                let me = currentThreadID
                var done = 0
                while done < 2_000 {
                    guard shared.word.tryTakeIdle(by: me) else { continue }
                    shared.count += 1
                    done += 1
                    XCTAssertTrue(shared.word.tryRelease(by: me))
                }
            })
        XCTAssertEqual(shared.count, 8_000)
    }
}
