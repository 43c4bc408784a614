import Foundation
import Observable
import Synchronization
import TetherTesting
import XCTest

/// `SerialGate`'s bookkeeping owners — a subscriber adding itself, a disposer removing its subscription —
/// perform their own operation and leave what other threads queued meanwhile to those threads, so that
/// `dispose()` does not deliver other subscribers' values (guarantee 2) while their senders still can.
///
/// A thread inside a contended submission is stood for by `contendedSubmitters`: the count and the way out
/// (`leaveQueued`) are what such a thread does around its locked queueing, and the real-thread case is
/// `testDisposeWhileAnotherThreadFloodsTheSubjectDeliversAlmostNothingOfTheFloodOnTheDisposingThread`.
final class SerialGateHandOffTests: XCTestCase {
    /// A gate of `Int` operations that records them in order; operation 0 runs `onZero` on its owner, and
    /// operation 1 `onOne`.
    final class Probe: @unchecked Sendable {
        // Safety: the hooks are set before any submission and read by the owner only.
        let gate = SerialGate<Int>()
        let performed = Locked<[Int]>([])
        let performers = Locked<Set<UInt>>([])
        var onZero: () -> Void = {}
        var onOne: () -> Void = {}

        func perform(_ op: Int) {
            performed.mutate { $0.append(op) }
            _ = performers.mutate { $0.insert(currentThreadID) }
            if op == 0 { onZero() }
            if op == 1 { onOne() }
        }

        /// Sends `ops` from a new thread, which finds the gate owned, queues them and returns.
        func queueFromAnotherThread(_ ops: [Int]) {
            let done = startThread { [self] in
                for op in ops { gate.submit(op) { self.perform($0) } }
            }
            waitOrFail(done, "the other thread's submissions")
        }
    }

    func testABookkeepingOwnerLeavesWhatOthersQueuedToASubmitterStillInsideItsSubmission() {
        let probe = Probe()
        probe.onZero = {
            probe.queueFromAnotherThread([1, 2])
            // A third thread is between its queueing and its return.
            probe.gate.contendedSubmitters.wrappingAdd(1, ordering: .relaxed)
        }
        probe.gate.submitUrgent(0) { probe.perform($0) }

        XCTAssertEqual(probe.performed.value, [0], "the bookkeeping owner performed only its own operation")
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 1, "left ownerless, with work pending")

        // That thread's way out finds the gate left to it and delivers.
        let done = startThread {
            probe.gate.leaveQueued(currentThreadID, perform: { probe.perform($0) }, handOff: false)
        }
        waitOrFail(done, "the submitter's way out")
        XCTAssertEqual(probe.performed.value, [0, 1, 2])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0, "idle again")
        XCTAssertEqual(probe.performers.value.count, 2, "the rest was delivered by the submitter, not the owner")
    }

    func testASubmitterArrivingAfterTheBookkeepingOwnerLeftTakesTheGateOver() {
        let probe = Probe()
        probe.onZero = {
            probe.queueFromAnotherThread([1])
            probe.gate.contendedSubmitters.wrappingAdd(1, ordering: .relaxed)
        }
        probe.gate.submitUrgent(0) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0])

        // A new sender finds the gate left with work pending: it takes it over, delivering what was queued
        // before its own value.
        let done = startThread { probe.gate.submit(2) { probe.perform($0) } }
        waitOrFail(done, "the new sender")
        XCTAssertEqual(probe.performed.value, [0, 1, 2])

        // The thread that was inside its submission leaves: nothing is left for it.
        probe.gate.leaveQueued(currentThreadID, perform: { probe.perform($0) }, handOff: false)
        XCTAssertEqual(probe.performed.value, [0, 1, 2])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0)
        XCTAssertEqual(probe.gate.contendedSubmitters.load(ordering: .relaxed), 0)
    }

    func testABookkeepingOwnerDeliversWhatOthersQueuedWhenTheyHaveAllReturned() {
        let probe = Probe()
        probe.onZero = { probe.queueFromAnotherThread([1, 2]) }
        probe.gate.submitUrgent(0) { probe.perform($0) }

        // Nobody else would ever deliver 1 and 2: the bookkeeping owner does, before it returns.
        XCTAssertEqual(probe.performed.value, [0, 1, 2])
        XCTAssertEqual(probe.performers.value, [currentThreadID])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0)
    }

    func testASendingOwnerKeepsDeliveringWhatOthersQueueEvenWithSubmittersInside() {
        let probe = Probe()
        probe.onZero = {
            probe.queueFromAnotherThread([1, 2])
            probe.gate.contendedSubmitters.wrappingAdd(1, ordering: .relaxed)
        }
        // A send (not bookkeeping) helps drain: it delivers what others queued meanwhile.
        probe.gate.submit(0) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0, 1, 2])
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0)
        probe.gate.contendedSubmitters.wrappingSubtract(1, ordering: .relaxed)
    }

    func testABookkeepingOwnerStopsMidBatchWhenASubmitterComesBackAndTheNextOwnerFinishesTheBatchFirst() {
        let probe = Probe()
        // Queued while the bookkeeping runs, by a thread that has returned: the owner delivers it...
        probe.onZero = { probe.queueFromAnotherThread([1, 2, 3]) }
        // ...until, during its first value, a sender is back inside a submission and queues 4.
        probe.onOne = {
            probe.gate.contendedSubmitters.wrappingAdd(1, ordering: .relaxed)
            probe.queueFromAnotherThread([4])
        }
        probe.gate.submitUrgent(0) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0, 1], "the owner stopped after the value during which a sender came")
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 1)

        let done = startThread {
            probe.gate.leaveQueued(currentThreadID, perform: { probe.perform($0) }, handOff: false)
        }
        waitOrFail(done, "the submitter's way out")
        XCTAssertEqual(probe.performed.value, [0, 1, 2, 3, 4], "the rest of the batch first, then what came after it")
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0)
    }

    func testABookkeepingOwnerStoppingMidBatchWakesASenderParkedOnTheFullBacklog() {
        let probe = Probe()
        let limit = SerialGate<Int>.backlogLimit
        var parkedSender: DispatchSemaphore?
        probe.onZero = { probe.queueFromAnotherThread([1, 2, 3]) }
        probe.onOne = {
            // A sender fills the backlog and parks on it, waiting for this owner.
            parkedSender = startThread {
                for op in 100..<(101 + limit) { probe.gate.submit(op, bounded: true) { probe.perform($0) } }
            }
            waitUntil {
                probe.gate.lock.lock()
                defer { probe.gate.lock.unlock() }
                return probe.gate.parkedSenders == 1
            }
        }
        probe.gate.submitUrgent(0) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0, 1], "the owner stopped: a sender is inside a submission")

        // Left to the parked sender, which must have been woken to take it.
        guard let parkedSender, waitOrFail(parkedSender, "the parked sender's return") else { return }
        XCTAssertEqual(probe.performed.value, [0, 1, 2, 3] + Array(100..<(101 + limit)))
        XCTAssertEqual(probe.gate.word.load(ordering: .relaxed), 0)
    }
}
