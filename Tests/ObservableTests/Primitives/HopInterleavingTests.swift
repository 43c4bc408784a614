import Foundation
import Synchronization
import TetherEngine
import TetherTestSupport
import XCTest

/// The engine's ``Hop`` runtime on real threads, through every schedule of small scenarios: senders off the
/// executor, the executor's thread running the hop's jobs, a backlog of one piece (so senders park), and a
/// cancel. The rules themselves are ``HopState``'s, explored without threads in `TetherEngineTests`; this
/// checks that the runtime applies them — effects outside the lock, the park's check against the published
/// flags, the wake of a parked sender — with nothing lost, nothing out of order, no deadlock.
final class HopInterleavingTests: XCTestCase {
    /// An executor driven by the test: an actor of the interleaving runs the jobs the hop queues, one at a
    /// time, and parks (in `ParkingLot`, where the harness sees it) while it has none.
    final class ScriptedExecutor: HopTarget, @unchecked Sendable {
        // Safety: `jobs` is guarded by `lock`; the counters are atomics.
        private let lock = NSLock()
        private var jobs: [@Sendable () -> Void] = []
        private let queued = Atomic<Int>(0)
        /// The executor actor's thread (set before any sender runs).
        let thread = Atomic<UInt>(0)
        /// Senders that have returned; the executor stops once all have and no job waits.
        let sendersDone = Atomic<Int>(0)
        let senders: Int

        init(senders: Int) {
            self.senders = senders
        }

        private var address: UInt { parkingAddress(of: self) }

        var isCurrent: Bool { currentThreadID == thread.load(ordering: .relaxed) }
        var expectedThread: UInt { thread.load(ordering: .relaxed) }
        func jobStarts(on thread: UInt) {}

        func enqueue(_ job: @escaping @Sendable () -> Void) {
            lock.withLock { jobs.append(job) }
            queued.add(1, ordering: .releasing)
            ParkingLot.unparkAll(address)
        }

        func senderReturned() {
            sendersDone.add(1, ordering: .releasing)
            ParkingLot.unparkAll(address)
        }

        /// The executor's loop: runs jobs until every sender returned and none is left.
        func run() {
            while true {
                let job: (@Sendable () -> Void)? = lock.withLock { jobs.isEmpty ? nil : jobs.removeFirst() }
                if let job {
                    queued.subtract(1, ordering: .relaxed)
                    job()
                    continue
                }
                if sendersDone.load(ordering: .acquiring) == senders { return }
                ParkingLot.park(on: address) {
                    queued.load(ordering: .acquiring) == 0 && sendersDone.load(ordering: .acquiring) < senders
                }
            }
        }
    }

    /// What the pieces did: which ran, on which thread, and whether one started after `cancel()` returned.
    final class Record: @unchecked Sendable {
        let ran = Locked<[Int]>([])
        let offExecutor = Atomic<Int>(0)
        let cancelReturned = Atomic<Bool>(false)
        let ranAfterCancel = Atomic<Int>(0)

        func piece(_ item: Int, on executor: ScriptedExecutor) -> () -> Void {
            {
                if self.cancelReturned.load(ordering: .acquiring) { self.ranAfterCancel.add(1, ordering: .relaxed) }
                if !executor.isCurrent { self.offExecutor.add(1, ordering: .relaxed) }
                self.ran.mutate { $0.append(item) }
                Interleaving.point("ran \(item)")
            }
        }

        /// Violations: each sender's items in its order, each once (all of them unless cancelled), all on the
        /// executor, none after cancel.
        func check(sent: [[Int]], cancelled: Bool) -> [String] {
            var problems: [String] = []
            let ran = self.ran.value
            if Set(ran).count != ran.count { problems.append("a piece ran twice: \(ran)") }
            for items in sent {
                let mine = ran.filter(items.contains)
                if mine != Array(items.prefix(mine.count)) { problems.append("out of order: \(ran)") }
                if !cancelled && mine.count != items.count { problems.append("lost: ran \(ran), sent \(sent)") }
            }
            if offExecutor.load(ordering: .relaxed) != 0 { problems.append("a piece ran off the executor") }
            if ranAfterCancel.load(ordering: .relaxed) != 0 { problems.append("a piece started after cancel") }
            return problems
        }
    }

    /// A scenario's executor (actor "X", spawned first, its thread known before any sender runs), a hop to
    /// it with a backlog of `limit` pieces, and the record of the pieces.
    private func executorAndHop(
        in run: Interleaving, senders: Int, limit: Int
    ) -> (ScriptedExecutor, Hop<ScriptedExecutor>, Record) {
        let executor = ScriptedExecutor(senders: senders)
        let x = run.spawn("X") { executor.run() }
        executor.thread.store(run.threadID(of: x), ordering: .relaxed)
        return (executor, Hop(executor, limit: limit), Record())
    }

    func testInEveryScheduleOfTwoSendersAgainstABacklogOfOneEveryPieceRunsOnceInOrderOnTheExecutor() {
        var parkedSomewhere = false
        let schedules = exploreInterleavings { run in
            let (executor, hop, record) = executorAndHop(in: run, senders: 2, limit: 1)
            let a = run.spawn("A") {
                hop.run(record.piece(1, on: executor))
                hop.run(record.piece(2, on: executor))
                executor.senderReturned()
            }
            let b = run.spawn("B") {
                hop.run(record.piece(11, on: executor))
                executor.senderReturned()
            }
            return {
                parkedSomewhere = parkedSomewhere || run.parks(of: a) + run.parks(of: b) > 0
                return record.check(sent: [[1, 2], [11]], cancelled: false)
            }
        }
        print("HopInterleavingTests (two senders, backlog of one): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 10)
        XCTAssertTrue(parkedSomewhere, "no schedule parked a sender on the full backlog")
    }

    /// A backlog of two: the job takes two pieces at once, and the cancel can come between them.
    func testInEveryScheduleACancelWakesTheParkedSenderAndNothingStartsAfterIt() {
        var parkedSomewhere = false
        let schedules = exploreInterleavings { run in
            let (executor, hop, record) = executorAndHop(in: run, senders: 2, limit: 2)
            let a = run.spawn("A") {
                hop.run(record.piece(1, on: executor))
                hop.run(record.piece(2, on: executor))
                hop.run(record.piece(3, on: executor))
                executor.senderReturned()
            }
            run.spawn("C") {
                hop.cancel()
                record.cancelReturned.store(true, ordering: .releasing)
                executor.senderReturned()
            }
            return {
                parkedSomewhere = parkedSomewhere || run.parks(of: a) > 0
                var problems = record.check(sent: [[1, 2, 3]], cancelled: true)
                if !hop.isCancelled { problems.append("not cancelled") }
                if hop.queuedCount != 0 { problems.append("\(hop.queuedCount) pieces left queued after cancel") }
                return problems
            }
        }
        print("HopInterleavingTests (cancel): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 10)
        XCTAssertTrue(parkedSomewhere, "no schedule parked the sender before the cancel")
    }
}
