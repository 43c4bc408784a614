import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

@testable import TetherEngine

/// Each of `SerialGate`'s submitting methods against the contract its notes state: which may park on a full
/// backlog and which never do, where a submission goes in the order (before or behind the events queued, or
/// behind what other threads queued when made from inside an operation), and who performs it. Scripted on the
/// interleaving harness: every state is read between two steps, nothing is timed.
final class SerialGateSubmissionTests: XCTestCase {
    typealias Recorder = SerialGateInterleavingTests.Recorder

    var limit: Int { SerialGate<Int>.backlogLimit }

    // MARK: Events

    func testAnEventInOrderFindingTheBacklogFullParksUntilTheOwnerTakesTheBatch() {
        let limit = self.limit
        let recorder = Recorder(stopsAt: { $0 == 0 || $0 == 1 })
        let run = Interleaving()
        let a = run.spawn("A") { recorder.submitEventInOrder(0) }
        let b = run.spawn("B") {
            for op in 1...limit + 1 { recorder.submitEventInOrder(op) }
        }
        XCTAssertEqual(run.step(a), .ready("op 0"))
        XCTAssertTrue(run.step(b).isParked, "B parked on its op \(limit + 1)")
        XCTAssertEqual(recorder.gate.queuedCount, limit, "the backlog is full, not past it")
        XCTAssertEqual(run.step(a), .ready("op 1"), "A took the batch")
        XCTAssertEqual(run.state(of: b), .woken, "taking the batch woke B")
        XCTAssertEqual(run.step(b), .finished, "B queued its op behind A's batch and returned")
        run.finish()
        XCTAssertEqual(recorder.performers(of: Set(0...limit + 1), in: run), ["A"])
        XCTAssertEqual(recorder.check(sent: [[0], Array(1...limit + 1)]), [])
    }

    // MARK: Never waiting

    /// A (the owner) is inside op 0, B filled the backlog; C's `submit` must return at once. `expected`: the
    /// order in which A then performs everything (C's op is `limit + 1`).
    func assertReturnsWhileTheBacklogIsFull(
        ordered: Bool, submit: @escaping @Sendable (Recorder, Int) -> Void, performs expected: (Int) -> [Int],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let limit = self.limit
        let recorder = Recorder(stopsAt: { $0 == 0 })
        let run = Interleaving()
        let a = run.spawn("A") { ordered ? recorder.submitEventInOrder(0) : recorder.submitEvent(0) }
        let b = run.spawn("B") {
            for op in 1...limit { ordered ? recorder.submitEventInOrder(op) : recorder.submitEvent(op) }
        }
        let c = run.spawn("C") { submit(recorder, limit + 1) }
        XCTAssertEqual(run.step(a), .ready("op 0"), file: file, line: line)
        XCTAssertEqual(run.step(b), .finished, file: file, line: line)
        XCTAssertEqual(recorder.gate.queuedCount, limit, "full", file: file, line: line)
        XCTAssertEqual(run.step(c), .finished, "C returned without parking", file: file, line: line)
        XCTAssertEqual(run.parks(of: c), 0, file: file, line: line)
        XCTAssertEqual(recorder.performed, [0], "C performed nothing", file: file, line: line)
        run.finish()
        XCTAssertEqual(recorder.performed, expected(limit), file: file, line: line)
        XCTAssertEqual(recorder.performers(in: run), Array(repeating: "A", count: limit + 2), file: file, line: line)
        XCTAssertEqual(recorder.violations, [], file: file, line: line)
        XCTAssertEqual(recorder.gate.word.state, 0, "idle again", file: file, line: line)
    }

    func testSubmittingWithoutWaitingReturnsWhileTheBacklogIsFullAndGoesBehindIt() {
        assertReturnsWhileTheBacklogIsFull(
            ordered: false, submit: { $0.submitWithoutWaiting($1) }, performs: { Array(0...$0 + 1) })
    }

    func testSubmittingInOrderWithoutWaitingReturnsWhileTheBacklogIsFullAndGoesBehindIt() {
        assertReturnsWhileTheBacklogIsFull(
            ordered: true, submit: { $0.submitInOrderWithoutWaiting($1) }, performs: { Array(0...$0 + 1) })
    }

    func testABookkeepingReleaseReturnsWhileTheBacklogIsFullAndGoesBeforeIt() {
        assertReturnsWhileTheBacklogIsFull(
            ordered: false, submit: { recorder, op in recorder.gate.submitBookkeeping(op) { recorder.perform($0) } },
            performs: { limit in [0, limit + 1] + Array(1...limit) })
    }

    func testBookkeepingReturnsWhileTheBacklogIsFullAndGoesBeforeIt() {
        let inPlace = Locked<[Int]>([])
        assertReturnsWhileTheBacklogIsFull(
            ordered: false,
            submit: { recorder, op in
                recorder.gate.submitBookkeeping(op) { op in
                    inPlace.mutate { $0.append(op) }
                    return true
                } perform: {
                    recorder.perform($0)
                }
            },
            performs: { limit in [0, limit + 1] + Array(1...limit) })
        XCTAssertEqual(inPlace.value, [], "not in place: the gate was owned")
    }

    func testBookkeepingInOrderReturnsWhileTheBacklogIsFullAndGoesBehindIt() {
        let inPlace = Locked<[Int]>([])
        assertReturnsWhileTheBacklogIsFull(
            ordered: true,
            submit: { recorder, op in
                recorder.gate.submitBookkeepingInOrder(op) { op in
                    inPlace.mutate { $0.append(op) }
                    return true
                } perform: {
                    recorder.perform($0)
                }
            },
            performs: { Array(0...$0 + 1) })
        XCTAssertEqual(inPlace.value, [], "not in place: the gate was owned")
    }

    // MARK: Reentrant submissions

    /// A is inside op 1 when B queues op 2; then op 1 submits op 3 from inside (reentrant): on an ordered gate
    /// op 3 goes behind op 2 — on an unordered one it would go first (see
    /// `SerialGateInterleavingTests.testASubmissionFromInsideAnOperationIsPerformedRightAfterItBeforeOtherThreadsQueuedOps`).
    func testAReentrantSubmissionToAnOrderedGateQueuesBehindWhatOtherThreadsQueuedBeforeIt() {
        let recorder = Recorder()
        let gate = recorder.gate
        @Sendable func perform(_ op: Int) {
            recorder.perform(op)
            if op == 1 {
                gate.submitEventInOrder {
                    3
                } perform: {
                    perform($0)
                }
                gate.submitBookkeepingInOrder(4) { _ in
                    XCTFail("bookkeeping done in place while the gate was owned")
                    return true
                } perform: {
                    perform($0)
                }
            }
        }
        let run = Interleaving()
        let a = run.spawn("A") {
            gate.submitEventInOrder {
                1
            } perform: {
                perform($0)
            }
        }
        let b = run.spawn("B") {
            gate.submitEventInOrder {
                2
            } perform: {
                perform($0)
            }
        }
        XCTAssertEqual(run.step(a), .ready("op 1"))
        XCTAssertEqual(run.step(b), .finished, "queued for A")
        run.finish()
        XCTAssertEqual(recorder.performed, [1, 2, 3, 4])
        XCTAssertEqual(recorder.performers(in: run), ["A", "A", "A", "A"])
        XCTAssertEqual(recorder.violations, [])
    }

    // MARK: Joins

    /// A join finding the backlog full parks like an event (a thread subscribing in a loop must not keep it
    /// full); once it has room it queues and returns.
    func assertAJoinFindingTheBacklogFullParks(
        _ join: @escaping @Sendable (Recorder, Int) -> Void, ordered: Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let limit = self.limit
        let recorder = Recorder(stopsAt: { $0 == 0 || $0 == 1 })
        let run = Interleaving()
        let a = run.spawn("A") { ordered ? recorder.submitEventInOrder(0) : recorder.submitEvent(0) }
        let b = run.spawn("B") {
            for op in 1...limit { ordered ? recorder.submitEventInOrder(op) : recorder.submitEvent(op) }
        }
        let c = run.spawn("C") { join(recorder, limit + 1) }
        XCTAssertEqual(run.step(a), .ready("op 0"), file: file, line: line)
        XCTAssertEqual(run.step(b), .finished, file: file, line: line)
        XCTAssertTrue(run.step(c).isParked, "the join parked on the full backlog", file: file, line: line)
        XCTAssertEqual(run.step(a), .ready("op 1"), "A took the batch", file: file, line: line)
        XCTAssertEqual(run.state(of: c), .woken, file: file, line: line)
        XCTAssertEqual(run.step(c), .finished, "queued behind A's batch", file: file, line: line)
        run.finish()
        XCTAssertEqual(recorder.check(sent: [[0], Array(1...limit), [limit + 1]]), [], file: file, line: line)
        XCTAssertEqual(recorder.performed.last, limit + 1, file: file, line: line)
    }

    func testAJoinFindingTheBacklogFullParksUntilTheOwnerTakesTheBatch() {
        assertAJoinFindingTheBacklogFullParks({ $0.submitJoin($1) }, ordered: false)
    }

    // MARK: Running in place

    func testRunIfIdleRunsTheBodyAsTheOwnerThenPerformsWhatWasQueuedMeanwhile() {
        let recorder = Recorder()
        let ran = Locked<Bool?>(nil)
        let run = Interleaving()
        let a = run.spawn("A") {
            let result = recorder.gate.runIfIdle {
                Interleaving.point("body")
            } perform: {
                recorder.perform($0)
            }
            ran.value = result
        }
        let b = run.spawn("B") { recorder.submitEvent(1) }
        XCTAssertEqual(run.step(a), .ready("body"))
        XCTAssertEqual(recorder.gate.word.state & ~1, run.threadID(of: a), "A owns the gate")
        XCTAssertEqual(run.step(b), .finished, "B queued its op for A")
        XCTAssertEqual(run.step(a), .ready("op 1"), "A performs it after the body")
        run.finish()
        XCTAssertEqual(ran.value, true)
        XCTAssertEqual(recorder.performers(in: run), ["A"])
        XCTAssertEqual(recorder.gate.word.state, 0, "idle again")
    }

    func testRunIfIdleRunsNothingWhenTheGateIsOwnedByAnotherThreadOrByTheCaller() {
        let recorder = Recorder()
        let results = Locked<[Bool]>([])
        let run = Interleaving()
        let a = run.spawn("A") {
            recorder.gate.submitEvent(0) { op in
                recorder.perform(op)
                // From inside an operation: the caller owns the gate.
                let result = recorder.gate.runIfIdle {
                    XCTFail("ran inside an operation")
                } perform: {
                    recorder.perform($0)
                }
                results.mutate { $0.append(result) }
            }
        }
        let b = run.spawn("B") {
            let result = recorder.gate.runIfIdle {
                XCTFail("ran while another thread owned the gate")
            } perform: {
                recorder.perform($0)
            }
            results.mutate { $0.append(result) }
        }
        XCTAssertEqual(run.step(a), .ready("op 0"))
        XCTAssertEqual(run.step(b), .finished)
        run.finish()
        XCTAssertEqual(results.value, [false, false])
        XCTAssertEqual(recorder.performed, [0])
        XCTAssertEqual(recorder.gate.word.state, 0, "idle again")
    }

    func testAnOrderedSubmissionLearnsWhoWillPerformTheOperationItIsMaking() {
        // Idle: the submitter performs it now; from inside an operation: after it; while another thread owns
        // the gate: that thread.
        let recorder = Recorder()
        let seen = Locked<[String]>([])
        @Sendable func submit(_ op: Int) {
            recorder.gate.submitEventInOrder {
                seen.mutate { $0.append("\(op): \(recorder.gate.orderedSubmissionDeliveryLocked())") }
                return op
            } perform: { op in
                recorder.perform(op)
                if op == 0 { submit(1) }
            }
        }
        let run = Interleaving()
        let a = run.spawn("A") { submit(0) }
        let b = run.spawn("B") { submit(2) }
        XCTAssertEqual(run.step(a), .ready("op 0"))
        XCTAssertEqual(run.step(b), .finished)
        run.finish()
        XCTAssertEqual(seen.value, ["0: now", "2: byAnotherThread", "1: afterTheCurrentOperation"])
        XCTAssertEqual(recorder.performed, [0, 2, 1])
    }

    // MARK: Waiting for room before submitting

    /// `MutableProperty.modify`'s protocol: wait for room under the lock, then take what the owner may wait
    /// for, then submit without waiting.
    func testWaitingForRoomInOrderParksWhileTheBacklogIsFullUntilTheOwnerTakesTheBatch() {
        let limit = self.limit
        let recorder = Recorder(stopsAt: { $0 == 0 || $0 == 1 })
        let backlogAfterWait = Locked<Int?>(nil)
        let run = Interleaving()
        let a = run.spawn("A") { recorder.submitEventInOrder(0) }
        let b = run.spawn("B") {
            for op in 1...limit { recorder.submitEventInOrder(op) }
        }
        let c = run.spawn("C") {
            let gate = recorder.gate
            gate.lock.lock()
            gate.waitForRoomInOrder { recorder.perform($0) }
            let backlog = gate.remote.count
            gate.lock.unlock()
            backlogAfterWait.value = backlog
            recorder.submitInOrderWithoutWaiting(limit + 1)
        }
        XCTAssertEqual(run.step(a), .ready("op 0"))
        XCTAssertEqual(run.step(b), .finished)
        XCTAssertTrue(run.step(c).isParked, "C waits for room")
        XCTAssertEqual(run.step(a), .ready("op 1"), "A took the batch")
        XCTAssertEqual(run.state(of: c), .woken)
        XCTAssertEqual(run.step(c), .finished)
        XCTAssertEqual(backlogAfterWait.value, 0, "room when C went on")
        run.finish()
        XCTAssertEqual(recorder.check(sent: [[0], Array(1...limit), [limit + 1]]), [])
        XCTAssertEqual(recorder.performers(in: run), Array(repeating: "A", count: limit + 2))
    }

    func testWaitingForRoomInOrderReturnsAtOnceWhenTheBacklogHasRoom() {
        let recorder = Recorder()
        recorder.gate.lock.lock()
        recorder.gate.waitForRoomInOrder { recorder.perform($0) }
        recorder.gate.lock.unlock()
        XCTAssertEqual(recorder.performed, [])
        XCTAssertEqual(recorder.gate.word.state, 0)
    }
}
