import Foundation
import Observable
import TetherEngine
import TetherTestSupport
import XCTest

/// `HeldFlag`'s wait for its holder (a `CompositeDisposable`'s second `dispose()` waiting for the first),
/// driven through scripted interleavings: a release wakes every waiter; a wait that `WaitGraph` breaks, or
/// would not start because it closes a cycle, returns `false` without the release.
final class HeldFlagInterleavingTests: XCTestCase {
    /// An object holding a flag, as `CompositeDisposable` does; waiters park on its address.
    final class Holder: Sendable {
        let flag = HeldFlag()

        var address: UInt { parkingAddress(of: self) }

        /// Releases the flag and wakes its waiters if one marked it; returns whether one did.
        @discardableResult
        func release() -> Bool {
            guard flag.release() else { return false }
            flag.wakeAll(parkedAt: address)
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

    func testAReleaseWakesEveryWaiterOfTheHolder() {
        let holder = Holder()
        let threads = Threads()
        let results = Locked<[Bool]>([])
        let reported = Locked<Bool?>(nil)
        let run = Interleaving()
        let owner = run.spawn("holder") {
            holder.flag.set(held: true)
            Interleaving.point("holding")
            reported.value = holder.release()
        }
        let waiters = (0..<2).map { index in
            run.spawn("waiter \(index)") {
                let released = holder.flag.waitUntilReleased(by: threads[0], parkingAt: holder.address)
                results.mutate { $0.append(released) }
            }
        }
        threads.ids = [run.threadID(of: owner)]
        XCTAssertEqual(run.step(owner), .ready("holding"))
        for waiter in waiters { XCTAssertEqual(run.step(waiter), .parked(holder.address)) }
        XCTAssertEqual(run.step(owner), .finished)
        XCTAssertEqual(reported.value, true, "the waiters marked the flag: the release reports them")
        for waiter in waiters { XCTAssertEqual(run.state(of: waiter), .woken, "a release wakes every waiter") }
        XCTAssertTrue(run.finish())
        XCTAssertEqual(results.value, [true, true], "both saw the holder release")
        XCTAssertTrue(holder.flag.isSet, "released, still set")
        XCTAssertFalse(holder.flag.isHeld)
    }

    func testABrokenWaitReturnsWithoutTheRelease() {
        let holder = Holder()
        let graph = WaitGraph.shared
        let threads = Threads()
        let result = Locked<Bool?>(nil)
        let run = Interleaving()
        let owner = run.spawn("holder") {
            holder.flag.set(held: true)
            Interleaving.point("holding")
            // A firm wait for the waiter closes the cycle holder → waiter → holder: it breaks the waiter's
            // breakable wait and wakes it.
            let wait = graph.begin(waitingFor: threads[1], breakable: false, parkingAddress: UInt(1) << 42)
            Interleaving.point("waiting for the waiter")
            if let wait { graph.end(wait) }
            holder.release()
        }
        let waiter = run.spawn("waiter") {
            result.value = holder.flag.waitUntilReleased(by: threads[0], parkingAt: holder.address)
        }
        threads.ids = [run.threadID(of: owner), run.threadID(of: waiter)]
        XCTAssertEqual(run.step(owner), .ready("holding"))
        XCTAssertEqual(run.step(waiter), .parked(holder.address))
        XCTAssertEqual(run.step(owner), .ready("waiting for the waiter"))
        XCTAssertEqual(run.state(of: waiter), .woken, "breaking the wait wakes the waiter")
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(result.value, false, "broken: it returns without the release")
        XCTAssertTrue(holder.flag.isHeld, "the holder still holds the flag")
        XCTAssertTrue(run.finish())
        XCTAssertFalse(holder.flag.isHeld)
    }

    func testAWaitThatWouldCloseACycleReturnsAtOnce() {
        let holder = Holder()
        let graph = WaitGraph.shared
        let threads = Threads()
        let result = Locked<Bool?>(nil)
        let run = Interleaving()
        let owner = run.spawn("holder") {
            holder.flag.set(held: true)
            let wait = graph.begin(waitingFor: threads[1], breakable: false, parkingAddress: UInt(1) << 42)
            Interleaving.point("waiting for the waiter")
            if let wait { graph.end(wait) }
            holder.release()
        }
        let waiter = run.spawn("waiter") {
            result.value = holder.flag.waitUntilReleased(by: threads[0], parkingAt: holder.address)
        }
        threads.ids = [run.threadID(of: owner), run.threadID(of: waiter)]
        XCTAssertEqual(run.step(owner), .ready("waiting for the waiter"))
        XCTAssertEqual(run.step(waiter), .finished, "the holder waits for the waiter: waiting for it would deadlock")
        XCTAssertEqual(run.parks(of: waiter), 0)
        XCTAssertEqual(result.value, false)
        XCTAssertTrue(run.finish())
        XCTAssertFalse(holder.flag.isHeld)
    }
}
