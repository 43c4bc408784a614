import Foundation
import Observable
import Synchronization
import TetherTestSupport
import XCTest

@testable import TetherEngine

/// `OwnerWord`, the owner-and-waiters word of `MutableProperty.modify`:
/// one owner at a time; a waiter parks only after marking the word, and the release tells the owner to wake
/// it; a wake-one is handed on through the mark of the waiter it woke. (The breakable wait for a given holder
/// is `HeldFlag`'s: HeldFlagInterleavingTests.) Driven through scripted and explored interleavings (no
/// sleeping: the harness learns of parks and wake-ups from `ParkingLot`), and one free-running race under a
/// watchdog.
final class OwnerWordTests: XCTestCase {
    /// An object holding a word, as the word's users do; waiters park on its address.
    final class Holder: @unchecked Sendable {
        // Safety: only the word (atomic) and the concurrency-safe counters.
        let word = OwnerWord()
        /// How many threads own the word at once, as seen by the contenders (must never exceed 1).
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)

        var address: UInt { parkingAddress(of: self) }

        /// Takes the word as `modify` does: retry, and after a wait that ended with a wake-one, take it with
        /// the waiters bit set. Returns whether this thread was woken on the way.
        @discardableResult
        func take(spinning spins: Int = 0) -> Bool {
            let me = currentThreadID
            var woken = false
            while !word.tryAcquire(by: me, markingWaiters: woken) {
                if word.waitUntilReleased(parkingAt: address, spinning: spins) { woken = true }
            }
            if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
                overlaps.wrappingAdd(1, ordering: .relaxed)
            }
            return woken
        }

        /// Releases the word and wakes one waiter (or all) if the release reports one; returns the report.
        @discardableResult
        func giveUp(wakingAll: Bool = false) -> Bool {
            inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            guard word.release() else { return false }
            if wakingAll { word.wakeAll(parkedAt: address) } else { word.wakeOne(parkedAt: address) }
            return true
        }
    }

    /// The thread IDs of a run's actors, known once spawned (actors read them after their first turn).
    final class Threads: @unchecked Sendable {
        // Safety: written by the test thread before any actor's first turn, read by actors after it (the
        // harness's monitor orders the two).
        var ids: [UInt] = []
        subscript(index: Int) -> UInt { ids[index] }
    }

    // MARK: Owning

    func testTheWordTakesOneMachineWordInItsObject() {
        // The objects holding it (a `MutableProperty`'s storage) keep the size of a bare atomic.
        XCTAssertEqual(MemoryLayout<OwnerWord>.size, MemoryLayout<UInt>.size)
        XCTAssertEqual(MemoryLayout<OwnerWord>.alignment, MemoryLayout<UInt>.alignment)
        XCTAssertEqual(MemoryLayout<OwnerWord>.stride, MemoryLayout<Atomic<UInt>>.stride)
    }

    func testOnlyOneThreadOwnsTheWordAtATime() {
        let holder = Holder()
        let me = currentThreadID
        XCTAssertFalse(holder.word.isOwned)
        XCTAssertEqual(holder.word.owner, 0)
        XCTAssertTrue(holder.word.tryAcquire(by: me))
        XCTAssertTrue(holder.word.isOwned)
        XCTAssertTrue(holder.word.isOwnedRelaxed)
        XCTAssertTrue(holder.word.isOwned(by: me))
        XCTAssertEqual(holder.word.owner, me)
        let other = me &+ 2
        XCTAssertFalse(holder.word.tryAcquire(by: other), "owned: a second owner does not take it")
        XCTAssertFalse(holder.word.isOwned(by: other))
        XCTAssertEqual(holder.word.owner, me)
        XCTAssertFalse(holder.word.release(), "nobody waited")
        XCTAssertFalse(holder.word.isOwned)
        XCTAssertTrue(holder.word.tryAcquire(by: other), "released: the next owner takes it")
        XCTAssertEqual(holder.word.owner, other)
        XCTAssertFalse(holder.word.release())
    }

    func testAnOwnerTakingTheWordMarkedReportsAWaiterAtItsRelease() {
        let holder = Holder()
        XCTAssertTrue(holder.word.tryAcquire(by: currentThreadID, markingWaiters: true))
        XCTAssertEqual(holder.word.owner, currentThreadID, "the waiters bit is not part of the owner")
        XCTAssertTrue(holder.word.release(), "taken after a wake-one: its release must wake the next waiter")
    }

    // MARK: Waiting until released (wake-one)

    func testAWaitOnAFreeWordReturnsWithoutParking() {
        let holder = Holder()
        let result = Locked<Bool?>(nil)
        let run = Interleaving()
        let waiter = run.spawn("waiter") {
            result.value = holder.word.waitUntilReleased(parkingAt: holder.address, spinning: 16)
        }
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(run.parks(of: waiter), 0)
        XCTAssertEqual(result.value, false, "not parked, so it holds no wake to pass on")
    }

    func testASecondOwnerWaitsUntilTheFirstReleases() {
        let holder = Holder()
        let woken = Locked<Bool?>(nil)
        let run = Interleaving()
        let first = run.spawn("first") {
            holder.take()
            Interleaving.point("owning")
            holder.giveUp()
            Interleaving.point("released")
        }
        let second = run.spawn("second") {
            woken.value = holder.take(spinning: 16)
            Interleaving.point("owning")
            holder.giveUp()
        }
        XCTAssertEqual(run.step(first), .ready("owning"))
        XCTAssertEqual(run.step(second), .parked(holder.address), "owned by the first: the second parks")
        XCTAssertEqual(holder.word.owner, run.threadID(of: first))
        XCTAssertEqual(holder.word.word.load(ordering: .relaxed) & 1, 1, "the waiter marked the word before parking")
        XCTAssertEqual(run.step(first), .ready("released"))
        XCTAssertEqual(run.state(of: second), .woken, "the release reported the waiter, and the owner woke it")
        XCTAssertFalse(holder.word.isOwned)
        XCTAssertEqual(run.step(second), .ready("owning"))
        XCTAssertEqual(holder.word.owner, run.threadID(of: second))
        XCTAssertEqual(woken.value, true)
        XCTAssertEqual(run.parks(of: second), 1)
        XCTAssertTrue(run.finish())
        XCTAssertFalse(holder.word.isOwned)
        XCTAssertEqual(holder.overlaps.load(ordering: .relaxed), 0)
    }

    func testReleaseReportsWhetherAWaiterMarkedTheWord() {
        let holder = Holder()
        let reports = Locked<[Bool]>([])
        let parked = Locked<Bool?>(nil)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            holder.take()
            Interleaving.point("owning")
            reports.mutate { $0.append(holder.word.release()) }
            Interleaving.point("released")
            holder.word.wakeOne(parkedAt: holder.address)
            Interleaving.point("woke")
            holder.take()
            reports.mutate { $0.append(holder.word.release()) }
        }
        let waiter = run.spawn("waiter") {
            parked.value = holder.word.waitUntilReleased(parkingAt: holder.address, spinning: 16)
        }
        XCTAssertEqual(run.step(owner), .ready("owning"))
        XCTAssertEqual(run.step(waiter), .parked(holder.address))
        XCTAssertEqual(holder.word.owner, run.threadID(of: owner), "marking the word keeps its owner")
        XCTAssertEqual(run.step(owner), .ready("released"))
        XCTAssertEqual(reports.value, [true], "a waiter parked: the release must say so")
        XCTAssertTrue(run.state(of: waiter).isParked, "releasing alone wakes nobody")
        XCTAssertEqual(run.step(owner), .ready("woke"))
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(parked.value, true, "woken by a wake-one: it holds the wake")
        XCTAssertEqual(run.step(owner), .finished)
        XCTAssertEqual(reports.value, [true, false], "nobody waited the second time")
    }

    func testReleaseWakesOneParkedWaiterPerRelease() {
        let holder = Holder()
        let run = Interleaving()
        let owner = run.spawn("owner") {
            holder.take()
            Interleaving.point("owning")
            holder.giveUp()
        }
        let waiters = ["first", "second"].map { name in
            run.spawn("\(name) waiter") {
                holder.take()
                Interleaving.point("owning")
                holder.giveUp()
            }
        }
        let (first, second) = (waiters[0], waiters[1])
        XCTAssertEqual(run.step(owner), .ready("owning"))
        XCTAssertEqual(run.step(first), .parked(holder.address))
        XCTAssertEqual(run.step(second), .parked(holder.address))
        XCTAssertEqual(run.step(owner), .finished)
        XCTAssertEqual(run.state(of: first), .woken, "the longest-parked waiter is woken")
        XCTAssertTrue(run.state(of: second).isParked, "one release wakes one waiter")
        XCTAssertEqual(run.step(first), .ready("owning"))
        XCTAssertTrue(run.state(of: second).isParked)
        XCTAssertEqual(
            holder.word.word.load(ordering: .relaxed) & 1, 1,
            "the woken waiter took the word marked: the second is still parked behind it")
        XCTAssertEqual(run.step(first), .finished)
        XCTAssertEqual(run.state(of: second), .woken, "the first waiter's release woke the second")
        XCTAssertEqual(run.step(second), .ready("owning"))
        XCTAssertEqual(run.step(second), .finished)
        XCTAssertFalse(holder.word.isOwned)
        XCTAssertEqual(holder.overlaps.load(ordering: .relaxed), 0)
    }

    func testAWokenWaiterThatFindsTheWordTakenAgainMarksItAndParksAgain() {
        let holder = Holder()
        let reports = Locked<[Bool]>([])
        let run = Interleaving()
        let owner = run.spawn("owner") {
            holder.take()
            Interleaving.point("owning")
            reports.mutate { $0.append(holder.giveUp()) }
            // Takes the word again before the woken waiter runs.
            holder.take()
            Interleaving.point("owning again")
            reports.mutate { $0.append(holder.giveUp()) }
        }
        let waiter = run.spawn("waiter") {
            holder.take()
            holder.giveUp()
        }
        XCTAssertEqual(run.step(owner), .ready("owning"))
        XCTAssertEqual(run.step(waiter), .parked(holder.address))
        XCTAssertEqual(run.step(owner), .ready("owning again"))
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .parked(holder.address), "taken again: the woken waiter parks again")
        XCTAssertEqual(run.parks(of: waiter), 2)
        XCTAssertEqual(run.step(owner), .finished)
        XCTAssertEqual(reports.value, [true, true], "it marked the new owner's word before parking again")
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertFalse(holder.word.isOwned)
    }

    func testEveryInterleavingOfThreeContendersKeepsOneOwnerAndEnds() {
        // Three threads take the word in turn (as writers take a property's `modify`), each waking one
        // waiter per release: in every schedule no two own it at once, and nobody stays parked.
        let schedules = exploreInterleavings { run in
            let holder = Holder()
            let turns = Locked<Int>(0)
            for name in ["A", "B", "C"] {
                run.spawn(name) {
                    holder.take()
                    Interleaving.point("\(name) owning")
                    turns.mutate { $0 += 1 }
                    holder.giveUp()
                }
            }
            return {
                var violations: [String] = []
                if holder.overlaps.load(ordering: .relaxed) != 0 { violations.append("two owners at once") }
                if turns.value != 3 { violations.append("\(turns.value) turns of 3") }
                if holder.word.isOwned { violations.append("the word is still owned") }
                return violations
            }
        }
        print("OwnerWordTests (three contenders): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 6, "contenders parked in some schedules and not in others")
    }

    // MARK: Free-running

    func testThreadsTakingTurnsNeverOverlapAndNeverStayParked() {
        // Real threads, no script: waiters park and wake at any point of the protocol. A lost wake-up leaves
        // a thread parked for good, which the watchdog turns into a failure.
        let holder = Holder()
        let turns = Atomic<Int>(0)
        let finished = runThreads(4, timeout: 120) { index in
            for _ in 0..<10_000 {
                holder.take(spinning: index % 2 == 0 ? 0 : 16)
                turns.wrappingAdd(1, ordering: .relaxed)
                holder.giveUp()
            }
        }
        XCTAssertTrue(finished)
        XCTAssertEqual(holder.overlaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(turns.load(ordering: .relaxed), 40_000)
        XCTAssertFalse(holder.word.isOwned)
    }
}
