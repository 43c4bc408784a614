import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

@testable import TetherEngine

/// `SerialGate` as a serial executor, driven through scripted and explored interleavings: one owner performs
/// operations one at a time, in submission order per sender; other threads' submissions are handed to it;
/// a sender finding the backlog full parks until the owner takes the batch; an owner hands a flood over to
/// the parked senders; nothing is lost or performed twice.
final class SerialGateInterleavingTests: XCTestCase {
    /// A gate of `Int` operations that records which actor performed which operation, and flags two
    /// operations running at once. The performer stops at "op N" for every `N` where `stopsAt(N)`.
    final class Recorder: @unchecked Sendable {
        // Safety: `performedOps` and `performerThreads` are written only inside operations, which the gate
        // runs one at a time (handing ownership over with acquire/release), and read by the test thread
        // between steps (ordered by the harness's monitor); `inside` catches two operations at once without
        // relying on that. `violationLog` is guarded by `lock`. (No lock per operation: the floods below
        // perform thousands of operations in each of hundreds of schedules.)
        let gate = SerialGate<Int>()
        let stopsAt: @Sendable (Int) -> Bool
        private let lock = NSLock()
        private var performedOps: [Int] = []
        /// The thread (`currentThreadID`) that performed each op.
        private var performerThreads: [UInt] = []
        private let inside = Atomic<Int>(0)
        private var violationLog: [String] = []

        init(stopsAt: @escaping @Sendable (Int) -> Bool = { _ in true }) {
            self.stopsAt = stopsAt
        }

        var performed: [Int] { performedOps }
        var violations: [String] { lock.withLock { violationLog } }

        /// The actor that performed each op, in order.
        func performers(in run: Interleaving) -> [String] {
            performerThreads.map { run.actorName(ofThread: $0) ?? "another thread" }
        }

        /// Who performed `ops` (each name once, in order of first appearance).
        func performers(of ops: Set<Int>, in run: Interleaving) -> [String] {
            var seen: [UInt] = []
            for (op, thread) in zip(performedOps, performerThreads) where ops.contains(op) && !seen.contains(thread) {
                seen.append(thread)
            }
            return seen.map { run.actorName(ofThread: $0) ?? "another thread" }
        }

        func perform(_ op: Int) {
            if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                lock.withLock { violationLog.append("op \(op) began while another operation ran") }
                inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                return  // not recorded: the arrays are the gate's to serialize
            }
            performedOps.append(op)
            performerThreads.append(currentThreadID)
            if stopsAt(op) { Interleaving.point("op \(op)") }
            inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }

        // An unordered gate's ways in.
        func submitEvent(_ op: Int) { gate.submitEvent(op) { self.perform($0) } }
        func submitJoin(_ op: Int) { gate.submitJoin(op) { self.perform($0) } }
        func submitWithoutWaiting(_ op: Int) { gate.submitWithoutWaiting(op) { self.perform($0) } }

        // An ordered gate's ways in; `op == nil`: the submission turns out to have nothing to submit once
        // it has its place.
        func submitEventInOrder(_ op: Int?) {
            gate.submitEventInOrder {
                op
            } perform: {
                self.perform($0)
            }
        }

        /// Bookkeeping that cannot be done in place: on an idle gate the caller performs it as the owner,
        /// and hands a flood over after one batch.
        func submitBookkeepingInOrder(_ op: Int) {
            gate.submitBookkeepingInOrder(op) { _ in
                false
            } perform: {
                self.perform($0)
            }
        }

        func submitInOrderWithoutWaiting(_ op: Int?) {
            gate.submitInOrderWithoutWaiting {
                op
            } perform: {
                self.perform($0)
            }
        }

        /// The violations of "every op performed exactly once, each sender's in the order it sent them".
        func check(sent bySender: [[Int]]) -> [String] {
            var found = violations
            let performed = self.performed
            let expected = bySender.flatMap { $0 }
            if performed.sorted() != expected.sorted() {
                found.append("performed \(performed.count) ops, not each of the \(expected.count) sent exactly once")
            }
            for ops in bySender {
                let set = Set(ops)
                let order = performed.filter(set.contains)
                if order != ops { found.append("sent in the order \(ops), performed in the order \(order)") }
            }
            if gate.word.state != 0 { found.append("the gate is not idle at the end") }
            return found
        }
    }

    var limit: Int { SerialGate<Int>.backlogLimit }

    /// A check after every step of an exploration: the current run's backlog holds at most the bound plus
    /// the one op it documents (a sender taking a gate handed over to it when the queue was full).
    static func backlogBoundCheck(_ current: Locked<Recorder?>) -> (Interleaving) -> String? {
        let limit = SerialGate<Int>.backlogLimit
        return { _ in
            let backlog = current.value?.gate.queuedCount ?? 0
            return backlog > limit + 1 ? "the backlog holds \(backlog) ops, past its bound \(limit) + 1" : nil
        }
    }

    func testSubmissionsWhileTheOwnerIsInsideAnOperationAreQueuedAndPerformedByTheOwnerInOrder() {
        let recorder = Recorder()
        let run = Interleaving()
        let a = run.spawn("A") { recorder.submitEvent(1) }
        let b = run.spawn("B") {
            recorder.submitEvent(2)
            recorder.submitEvent(3)
        }
        let c = run.spawn("C") { recorder.submitEvent(4) }
        XCTAssertEqual(run.step(a), .ready("op 1"), "A took the idle gate and performs op 1")
        XCTAssertEqual(run.step(b), .finished, "B queued its ops and returned without performing any")
        XCTAssertEqual(run.step(c), .finished)
        XCTAssertEqual(recorder.performed, [1])
        XCTAssertEqual(run.step(a), .ready("op 2"))
        XCTAssertEqual(run.step(a), .ready("op 3"))
        XCTAssertEqual(run.step(a), .ready("op 4"))
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(recorder.performers(in: run), ["A", "A", "A", "A"])
        XCTAssertEqual(recorder.check(sent: [[1], [2, 3], [4]]), [])
    }

    func testASubmissionFromInsideAnOperationIsPerformedRightAfterItBeforeOtherThreadsQueuedOps() {
        let recorder = Recorder()
        let events = Locked<[String]>([])
        let gate = recorder.gate
        @Sendable func perform(_ op: Int) {
            events.mutate { $0.append("enter \(op)") }
            recorder.perform(op)
            if op == 1 {
                gate.submitEvent(2) { perform($0) }  // reentrant: queued behind op 1, not run nested
            }
            events.mutate { $0.append("exit \(op)") }
        }
        let run = Interleaving()
        let a = run.spawn("A") { gate.submitEvent(1) { perform($0) } }
        let b = run.spawn("B") { gate.submitEvent(3) { perform($0) } }
        XCTAssertEqual(run.step(a), .ready("op 1"))
        XCTAssertEqual(run.step(b), .finished, "queued for A")
        run.finish()
        XCTAssertEqual(events.value, ["enter 1", "exit 1", "enter 2", "exit 2", "enter 3", "exit 3"])
        XCTAssertEqual(recorder.performers(in: run), ["A", "A", "A"])
        XCTAssertEqual(recorder.check(sent: [[1, 2], [3]]), [])
    }

    func testASenderFindingTheBacklogFullParksUntilTheOwnerTakesTheBatchAndNothingIsLost() {
        let limit = self.limit
        let recorder = Recorder(stopsAt: { $0 == 0 || $0 == 1 })
        let run = Interleaving()
        let a = run.spawn("A") { recorder.submitEvent(0) }
        let b = run.spawn("B") {
            for op in 1...limit + 1 { recorder.submitEvent(op) }
        }
        XCTAssertEqual(run.step(a), .ready("op 0"))
        XCTAssertTrue(run.step(b).isParked, "B parked on its op \(limit + 1)")
        XCTAssertEqual(recorder.gate.queuedCount, limit, "the backlog is full, not past it")
        XCTAssertEqual(run.parks(of: b), 1)
        XCTAssertEqual(run.step(a), .ready("op 1"), "A took the batch")
        XCTAssertEqual(run.state(of: b), .woken, "taking the batch woke B")
        XCTAssertEqual(recorder.gate.queuedCount, 0)
        XCTAssertEqual(run.step(b), .finished, "B queued its op behind A's batch and returned")
        run.finish()
        XCTAssertEqual(recorder.performers(of: Set(0...limit + 1), in: run), ["A"])
        XCTAssertEqual(recorder.check(sent: [[0], Array(1...limit + 1)]), [])
    }

    /// A flood the senders keep refilling while the owner performs it: the owner, taking the idle gate with
    /// `owner`'s op 0, performs `batches` of it (stopping at the last op of each), then leaves the gate to
    /// the parked sender, which performs the rest; the sender's events go in with `sender`.
    func assertOwnerHandsTheFloodOver(
        afterBatches batches: Int, owner: @escaping @Sendable (Recorder) -> Void,
        sender: @escaping @Sendable (Recorder, Int) -> Void, file: StaticString = #filePath, line: UInt = #line
    ) {
        let limit = self.limit
        // B's ops: it fills the backlog and parks on the next op, `batches + 1` times.
        let lastOp = (batches + 1) * limit + 1
        let recorder = Recorder(stopsAt: { $0 % limit == 0 })
        let run = Interleaving()
        let a = run.spawn("A") { owner(recorder) }
        let b = run.spawn("B") {
            for op in 1...lastOp { sender(recorder, op) }
        }
        XCTAssertEqual(run.step(a), .ready("op 0"), file: file, line: line)
        for batch in 1...batches {
            XCTAssertTrue(run.step(b).isParked, "B parked on a full backlog (\(batch))", file: file, line: line)
            XCTAssertEqual(
                run.step(a), .ready("op \(batch * limit)"), "A performed batch \(batch)", file: file, line: line)
            XCTAssertEqual(run.state(of: b), .woken, file: file, line: line)
        }
        XCTAssertTrue(run.step(b).isParked, "B parked once more", file: file, line: line)
        XCTAssertEqual(run.step(a), .finished, "A left the rest to B and returned", file: file, line: line)
        XCTAssertEqual(recorder.performed.last, batches * limit, "A performed no more", file: file, line: line)
        XCTAssertEqual(run.state(of: b), .woken, file: file, line: line)
        run.finish()
        XCTAssertEqual(run.parks(of: b), batches + 1, file: file, line: line)
        XCTAssertEqual(recorder.performers(of: Set(0...batches * limit), in: run), ["A"], file: file, line: line)
        XCTAssertEqual(
            recorder.performers(of: Set(batches * limit + 1...lastOp), in: run), ["B"], file: file, line: line)
        XCTAssertEqual(recorder.check(sent: [[0], Array(1...lastOp)]), [], file: file, line: line)
    }

    func testAnOwnerThatCameToJoinHandsAFloodOverToTheParkedSenderAfterOneBatch() {
        assertOwnerHandsTheFloodOver(afterBatches: 1, owner: { $0.submitJoin(0) }, sender: { $0.submitEvent($1) })
    }

    func testAnOwnerThatCameWithAnEventHandsAFloodOverToTheParkedSenderAfterItsBatchesForOthers() {
        assertOwnerHandsTheFloodOver(
            afterBatches: SerialGate<Int>.batchesBeforeHandOff, owner: { $0.submitEvent(0) },
            sender: { $0.submitEvent($1) })
    }

    func testAnOwnerThatCameWithAnEventInOrderHandsAFloodOverToTheParkedSenderAfterItsBatchesForOthers() {
        assertOwnerHandsTheFloodOver(
            afterBatches: SerialGate<Int>.batchesBeforeHandOff, owner: { $0.submitEventInOrder(0) },
            sender: { $0.submitEventInOrder($1) })
    }

    func testBookkeepingQueuedWhileTheOwnerIsInsideAnOperationIsPerformedByTheOwnerNotTheSubmitter() {
        let recorder = Recorder()
        let inPlace = Locked<[Int]>([])
        let run = Interleaving()
        let a = run.spawn("A") { recorder.submitEvent(1) }
        let b = run.spawn("B") {
            recorder.gate.submitBookkeeping(9) { op in
                inPlace.mutate { $0.append(op) }
                return true
            } perform: {
                recorder.perform($0)
            }
        }
        let c = run.spawn("C") { recorder.submitEvent(2) }
        run.step(a)
        XCTAssertEqual(run.step(c), .finished)
        XCTAssertEqual(run.step(b), .finished, "B queued its bookkeeping and returned")
        run.finish()
        XCTAssertEqual(inPlace.value, [], "not done in place: the gate was owned")
        XCTAssertEqual(recorder.performed, [1, 9, 2], "before the op queued earlier")
        XCTAssertEqual(recorder.performers(in: run), ["A", "A", "A"])
    }

    // MARK: Every schedule

    /// Two senders, two ops each, the performer stopping in every op: in every schedule the ops are performed
    /// one at a time, each exactly once, each sender's in order, and the gate ends idle.
    func testInEveryScheduleOfTwoSendersEveryOpIsPerformedOnceInOrderOneAtATime() {
        let schedules = exploreInterleavings { run in
            let recorder = Recorder()
            run.spawn("A") {
                recorder.submitEvent(1)
                Interleaving.point("between")
                recorder.submitEvent(2)
            }
            run.spawn("B") {
                recorder.submitEvent(3)
                Interleaving.point("between")
                recorder.submitEvent(4)
            }
            return { recorder.check(sent: [[1, 2], [3, 4]]) }
        }
        print("SerialGateInterleavingTests (two senders): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// Three senders, one of them sending again from inside its own op (a reentrant send).
    func testInEveryScheduleOfThreeSendersWithAReentrantSendEveryOpIsPerformedOnceInOrder() {
        let schedules = exploreInterleavings { run in
            let recorder = Recorder()
            let gate = recorder.gate
            @Sendable func perform(_ op: Int) {
                recorder.perform(op)
                if op == 1 { gate.submitEvent(2) { perform($0) } }
            }
            run.spawn("A") { gate.submitEvent(1) { perform($0) } }
            run.spawn("B") { gate.submitEvent(3) { perform($0) } }
            run.spawn("C") { gate.submitEvent(4) { perform($0) } }
            return { recorder.check(sent: [[1, 2], [3], [4]]) }
        }
        print("SerialGateInterleavingTests (three senders, reentrant): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// Senders against a full backlog: B fills it (one step) and sends one more, C sends two; the owner A
    /// and the performer stop at the ops that matter. In every schedule: the backlog never holds more than
    /// the bound plus the one op it documents (a sender taking a gate handed over to it), every parked sender
    /// is woken, every op is performed once, each sender's in order.
    func testInEveryScheduleOfSendersAgainstAFullBacklogNothingIsLostAndTheBoundHolds() {
        let limit = self.limit
        let current = Locked<Recorder?>(nil)
        let boundHolds = Self.backlogBoundCheck(current)
        let schedules = exploreInterleavings(afterEachStep: boundHolds) { run in
            let recorder = Recorder(stopsAt: { $0 == 0 || $0 > limit })
            current.value = recorder
            run.spawn("A") { recorder.submitEvent(0) }
            run.spawn("B") {
                for op in 1...limit { recorder.submitEvent(op) }
                Interleaving.point("filled")
                recorder.submitEvent(limit + 1)
            }
            run.spawn("C") {
                recorder.submitEvent(limit + 2)
                recorder.submitEvent(limit + 3)
            }
            return { recorder.check(sent: [[0], Array(1...limit + 1), [limit + 2, limit + 3]]) }
        }
        print("SerialGateInterleavingTests (full backlog): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// Three senders, two ops each, with a stop between their sends and in every op.
    func testInEveryScheduleOfThreeSendersEveryOpIsPerformedOnceInOrderOneAtATime() {
        let schedules = exploreInterleavings { run in
            let recorder = Recorder()
            for (name, ops) in [("A", [1, 2]), ("B", [3, 4]), ("C", [5, 6])] {
                run.spawn(name) {
                    recorder.submitEvent(ops[0])
                    Interleaving.point("between")
                    recorder.submitEvent(ops[1])
                }
            }
            return { recorder.check(sent: [[1, 2], [3, 4], [5, 6]]) }
        }
        print("SerialGateInterleavingTests (three senders): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// An owner that only came for its own op (a join), a sender that fills the backlog twice (parking
    /// each time), and a third thread queueing bookkeeping and then an op: in every schedule the
    /// flood is handed over without losing, duplicating or reordering anything, the bookkeeping is done
    /// exactly once (in place or by an owner), the bound holds (plus its one documented op) and nothing
    /// deadlocks.
    func testInEveryScheduleAFloodHandedOverWhileBookkeepingIsQueuedLosesNothing() {
        let limit = self.limit
        let current = Locked<Recorder?>(nil)
        let boundHolds = Self.backlogBoundCheck(current)
        let schedules = exploreInterleavings(afterEachStep: boundHolds) { run in
            let recorder = Recorder(stopsAt: { $0 % limit == 0 })
            current.value = recorder
            let inPlace = Locked<[Int]>([])
            run.spawn("A") { recorder.submitJoin(0) }
            run.spawn("B") {
                for op in 1...limit + 1 { recorder.submitEvent(op) }
                Interleaving.point("refilling")
                for op in limit + 2...2 * limit + 1 { recorder.submitEvent(op) }
            }
            run.spawn("C") {
                recorder.gate.submitBookkeeping(9001) { op in
                    inPlace.mutate { $0.append(op) }
                    return true
                } perform: {
                    recorder.perform($0)
                }
                recorder.submitEvent(9002)
            }
            return {
                var violations = recorder.check(sent: [[0], Array(1...2 * limit + 1), [9002]] + [])
                    .filter { !$0.hasPrefix("performed") }
                let performed = recorder.performed.filter { $0 != 9001 }
                if performed.sorted() != [0] + Array(1...2 * limit + 1) + [9002] {
                    violations.append("performed \(performed.count) ops, not each of the \(2 * limit + 3) sent once")
                }
                let bookkeeping = recorder.performed.filter { $0 == 9001 }.count + inPlace.value.count
                if bookkeeping != 1 { violations.append("the bookkeeping was done \(bookkeeping) times") }
                return violations
            }
        }
        print("SerialGateInterleavingTests (hand-off and bookkeeping): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// An ordered gate (every submission in lock order), three senders, one of them sending again from
    /// inside its op: every op performed once, each sender's in order, the reentrant one right behind what
    /// was queued before it.
    func testInEveryScheduleOfAnOrderedGatesSendersEveryOpIsPerformedOnceInOrder() {
        let schedules = exploreInterleavings { run in
            let recorder = Recorder()
            let gate = recorder.gate
            @Sendable func perform(_ op: Int) {
                recorder.perform(op)
                if op == 1 {
                    gate.submitEventInOrder {
                        2
                    } perform: {
                        perform($0)
                    }
                }
            }
            run.spawn("A") {
                gate.submitEventInOrder {
                    1
                } perform: {
                    perform($0)
                }
            }
            // The same `perform` for every submission (the gate's rule): whoever performs op 1 sends op 2.
            run.spawn("B") {
                gate.submitEventInOrder {
                    3
                } perform: {
                    perform($0)
                }
                gate.submitEventInOrder {
                    4
                } perform: {
                    perform($0)
                }
            }
            run.spawn("C") {
                gate.submitEventInOrder {
                    5
                } perform: {
                    perform($0)
                }
            }
            return { recorder.check(sent: [[1, 2], [3, 4], [5]]) }
        }
        print("SerialGateInterleavingTests (ordered gate): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }

    /// An ordered gate handed over by an owner that only came for its own op (bookkeeping), while a sender fills the
    /// backlog twice and a third sender, parked on the full backlog too, turns out to have nothing to
    /// submit: in every schedule the flood is delivered once and in order, and nothing is stranded (a gate
    /// left ownerless with work pending and nobody to take it shows as ops never performed).
    func testInEveryScheduleAnOrderedGateHandedOverToSendersThatSubmitNothingStrandsNothing() {
        let limit = self.limit
        let current = Locked<Recorder?>(nil)
        let boundHolds = Self.backlogBoundCheck(current)
        let schedules = exploreInterleavings(afterEachStep: boundHolds) { run in
            let recorder = Recorder(stopsAt: { $0 % limit == 0 })
            current.value = recorder
            run.spawn("A") { recorder.submitBookkeepingInOrder(0) }
            run.spawn("B") {
                for op in 1...limit + 1 { recorder.submitEventInOrder(op) }
                Interleaving.point("refilling")
                for op in limit + 2...2 * limit + 1 { recorder.submitEventInOrder(op) }
            }
            run.spawn("C") {
                recorder.submitEventInOrder(nil)
            }
            return { recorder.check(sent: [[0], Array(1...2 * limit + 1)]) }
        }
        print("SerialGateInterleavingTests (ordered hand-off, nothing submitted): \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }
}
