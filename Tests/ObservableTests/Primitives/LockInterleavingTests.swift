import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

@testable import TetherEngine

/// `Lock`, driven through scripted and exhaustively explored interleavings (see `Interleaving`): mutual
/// exclusion, parking on a held lock and the hand-over on unlock, `tryLock`, `withLock`.
final class LockInterleavingTests: XCTestCase {
    /// A lock and the state it guards (touched only with `lock` held).
    final class Guarded: @unchecked Sendable {
        let lock = Lock()
        var holders = 0
        var order: [String] = []
        var overlaps: [String] = []

        /// Takes the lock, records `name` as its holder and stops at "holding <name>" before unlocking.
        func hold(_ name: String) {
            lock.lock()
            holders += 1
            if holders != 1 { overlaps.append("\(name) holds the lock with \(holders - 1) other holder(s)") }
            order.append(name)
            Interleaving.point("holding \(name)")
            holders -= 1
            lock.unlock()
        }
    }

    func testAThreadLockingAHeldLockParksAndGetsItWhenTheHolderUnlocks() {
        let guarded = Guarded()
        let run = Interleaving()
        let a = run.spawn("A") { guarded.hold("A") }
        let b = run.spawn("B") { guarded.hold("B") }
        XCTAssertEqual(run.step(a), .ready("holding A"))
        XCTAssertTrue(run.step(b).isParked, "B waits for the lock, parked")
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(run.state(of: b), .woken, "A's unlock woke B")
        XCTAssertEqual(run.step(b), .ready("holding B"))
        run.finish()
        XCTAssertEqual(guarded.order, ["A", "B"])
        XCTAssertEqual(guarded.overlaps, [])
        XCTAssertEqual(run.parks(of: b), 1)
        XCTAssertEqual(guarded.lock.state.load(ordering: .relaxed), 0, "unlocked at the end")
    }

    func testUnlockWakesOneParkedWaiterAtATimeInTheOrderTheyParked() {
        let guarded = Guarded()
        let run = Interleaving()
        let a = run.spawn("A") { guarded.hold("A") }
        let b = run.spawn("B") { guarded.hold("B") }
        let c = run.spawn("C") { guarded.hold("C") }
        run.step(a)
        XCTAssertTrue(run.step(b).isParked)
        XCTAssertTrue(run.step(c).isParked)
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(run.state(of: b), .woken, "the first waiter is woken")
        XCTAssertTrue(run.state(of: c).isParked, "the second stays parked")
        XCTAssertEqual(run.step(b), .ready("holding B"))
        XCTAssertEqual(run.step(b), .finished)
        XCTAssertEqual(run.state(of: c), .woken, "B's unlock woke C")
        run.finish()
        XCTAssertEqual(guarded.order, ["A", "B", "C"])
        XCTAssertEqual(guarded.overlaps, [])
        XCTAssertEqual(guarded.lock.state.load(ordering: .relaxed), 0)
    }

    func testTryLockFailsWithoutWaitingWhileAnotherThreadHoldsTheLock() {
        let guarded = Guarded()
        let results = Locked<[Bool]>([])
        let run = Interleaving()
        let a = run.spawn("A") { guarded.hold("A") }
        let b = run.spawn("B") {
            let taken = guarded.lock.tryLock()
            results.mutate { $0.append(taken) }
            if taken { guarded.lock.unlock() }
            Interleaving.point("tried")
            let second = guarded.lock.tryLock()
            results.mutate { $0.append(second) }
            if second { guarded.lock.unlock() }
        }
        run.step(a)
        XCTAssertEqual(run.step(b), .ready("tried"))
        XCTAssertEqual(results.value, [false])
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(run.step(b), .finished)
        XCTAssertEqual(results.value, [false, true], "free again once A unlocked")
        XCTAssertEqual(run.parks(of: b), 0, "tryLock never parks")
    }

    func testWithLockReturnsTheBodysResultRethrowsItsErrorAndUnlocksEitherWay() {
        let guarded = Guarded()
        XCTAssertEqual(guarded.lock.withLock { 42 }, 42)
        XCTAssertEqual(guarded.lock.state.load(ordering: .relaxed), 0)
        XCTAssertThrowsError(try guarded.lock.withLock { () throws -> Int in throw TestError(7) }) { error in
            XCTAssertEqual(error as? TestError, TestError(7))
        }
        XCTAssertEqual(guarded.lock.state.load(ordering: .relaxed), 0, "unlocked after the throw")
        XCTAssertTrue(guarded.lock.tryLock())
        guarded.lock.unlock()
    }

    func testAWaiterThatParkedWhileTheBodyThrewIsWokenByWithLocksUnlock() {
        let guarded = Guarded()
        let caught = Locked<Bool>(false)
        let run = Interleaving()
        let a = run.spawn("A") {
            do {
                try guarded.lock.withLock {
                    Interleaving.point("inside")
                    throw TestError(1)
                }
            } catch {
                caught.value = true
            }
        }
        let b = run.spawn("B") { guarded.hold("B") }
        run.step(a)
        XCTAssertTrue(run.step(b).isParked)
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(run.state(of: b), .woken)
        run.finish()
        XCTAssertTrue(caught.value)
        XCTAssertEqual(guarded.order, ["B"])
    }

    /// Three threads each take the lock twice, stopping while they hold it: in every schedule at most one
    /// holds it, every waiter gets it (no lost wake-up: a lost one shows as a deadlock), it ends unlocked.
    func testInEveryScheduleOfThreeThreadsTheLockHasOneHolderAndEveryWaiterGetsIt() {
        let schedules = exploreInterleavings { run in
            let guarded = Guarded()
            for name in ["A", "B", "C"] {
                run.spawn(name) {
                    guarded.hold(name)
                    guarded.hold(name)
                }
            }
            return {
                var violations = guarded.overlaps
                if guarded.order.count != 6 { violations.append("\(guarded.order.count) of 6 acquisitions") }
                if guarded.lock.state.load(ordering: .relaxed) != 0 { violations.append("left locked") }
                return violations
            }
        }
        print("LockInterleavingTests: \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }
}
