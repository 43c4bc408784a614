import Foundation
import Observable
import Synchronization
import TetherTestSupport
import XCTest

@testable import TetherEngine

/// `SerialGate`'s bookkeeping (`submitBookkeeping`, `submitBookkeepingInOrder`): a removal is done in place under
/// the gate's lock when the gate is idle, or queued for the thread that owns it — the submitter never performs
/// what other threads queued (guarantee 2: `dispose()` delivers nothing to other subscribers). On an unordered
/// gate it goes before the events queued so far, on an ordered one behind them.
final class SerialGateBookkeepingTests: XCTestCase {
    /// A gate of `Int` operations, unordered or `ordered`, that records them, and the threads that performed
    /// them, in order. Operation 0 blocks its owner until `resume` is signalled (after signalling `inside`).
    final class Probe: Sendable {
        let gate = SerialGate<Int>()
        let ordered: Bool
        let performed = Locked<[Int]>([])
        let performers = Locked<[UInt]>([])
        let doneInPlace = Locked<[Int]>([])
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)

        init(ordered: Bool) {
            self.ordered = ordered
        }

        func perform(_ op: Int) {
            performed.mutate { $0.append(op) }
            performers.mutate { $0.append(currentThreadID) }
            if op == 0 {
                inside.signal()
                resume.wait()
            }
        }

        /// Submits event `op` the way this gate's events go.
        func send(_ op: Int) {
            if ordered {
                gate.submitEventInOrder {
                    op
                } perform: {
                    self.perform($0)
                }
            } else {
                gate.submitEvent(op) { self.perform($0) }
            }
        }

        /// Submits bookkeeping `op` the way this gate's bookkeeping goes; `inPlace` does it (and says so)
        /// unless `declining`.
        func submitBookkeeping(_ op: Int, declining: Bool = false) {
            let inPlace: @Sendable (Int) -> Bool = { op in
                if declining { return false }
                self.doneInPlace.mutate { $0.append(op) }
                return true
            }
            if ordered {
                gate.submitBookkeepingInOrder(op, inPlace: inPlace) { self.perform($0) }
            } else {
                gate.submitBookkeeping(op, inPlace: inPlace) { self.perform($0) }
            }
        }

        /// Starts a thread that takes the idle gate with operation 0 and stays inside it until `resume`;
        /// returns once it is inside, with a semaphore signalled when that thread has returned.
        func ownOnAnotherThread(file: StaticString = #filePath, line: UInt = #line) -> (DispatchSemaphore, UInt) {
            let ownerID = Locked<UInt>(0)
            let done = startThread {
                ownerID.value = currentThreadID
                self.send(0)
            }
            waitOrFail(inside, "the owner inside operation 0", file: file, line: line)
            return (done, ownerID.value)
        }
    }

    func testBookkeepingOnAnIdleGateIsDoneInPlaceAndLeavesTheGateIdle() {
        for ordered in [false, true] {
            let probe = Probe(ordered: ordered)
            probe.submitBookkeeping(5)
            XCTAssertEqual(probe.doneInPlace.value, [5], "ordered: \(ordered)")
            XCTAssertEqual(probe.performed.value, [], "not performed as an ordinary operation (ordered: \(ordered))")
            XCTAssertEqual(probe.gate.word.state, 0, "idle again (ordered: \(ordered))")
        }
    }

    func testBookkeepingThatDeclinesInPlaceIsPerformedByTheCallerAsTheOwner() {
        for ordered in [false, true] {
            let probe = Probe(ordered: ordered)
            probe.submitBookkeeping(5, declining: true)
            XCTAssertEqual(probe.performed.value, [5], "ordered: \(ordered)")
            XCTAssertEqual(probe.performers.value, [currentThreadID], "ordered: \(ordered)")
            XCTAssertEqual(probe.gate.word.state, 0, "idle again (ordered: \(ordered))")
        }
    }

    func testBookkeepingOnAnUnorderedGateOwnedByAnotherThreadIsLeftToItsOwnerBeforeTheQueuedEvents() {
        let probe = Probe(ordered: false)
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        // Another thread queues events behind operation 0 meanwhile.
        waitOrFail(startThread { for op in [1, 2] { probe.send(op) } }, "the sends")
        probe.submitBookkeeping(9)
        XCTAssertEqual(probe.performed.value, [0], "the submitter returned without performing anything")
        XCTAssertEqual(probe.doneInPlace.value, [])
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 9, 1, 2])
        XCTAssertEqual(Set(probe.performers.value), [owner], "all performed by the owner")
        XCTAssertEqual(probe.gate.word.state, 0, "idle again")
    }

    func testBookkeepingOnAnOrderedGateOwnedByAnotherThreadIsLeftToItsOwnerBehindTheQueuedEvents() {
        let probe = Probe(ordered: true)
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        waitOrFail(startThread { for op in [1, 2] { probe.send(op) } }, "the sends")
        probe.submitBookkeeping(7)
        XCTAssertEqual(probe.performed.value, [0], "the submitter returned without performing anything")
        XCTAssertEqual(probe.doneInPlace.value, [])
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 1, 2, 7], "in order behind the events queued before it")
        XCTAssertEqual(Set(probe.performers.value), [owner], "all performed by the owner")
        XCTAssertEqual(probe.gate.word.state, 0, "idle again")
    }

    /// A sole subscription's release (`submitBookkeeping(_:perform:)`, no in-place path): on an idle gate the
    /// caller performs it as the owner; on an owned one it is left to the owner, before the queued events.
    func testABookkeepingReleaseIsPerformedByTheCallerOnAnIdleGateAndByTheOwnerBeforeTheEventsOtherwise() {
        let idle = Probe(ordered: false)
        idle.gate.submitBookkeeping(5) { idle.perform($0) }
        XCTAssertEqual(idle.performed.value, [5])
        XCTAssertEqual(idle.performers.value, [currentThreadID])
        XCTAssertEqual(idle.gate.word.state, 0, "idle again")

        let probe = Probe(ordered: false)
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        waitOrFail(startThread { for op in [1, 2] { probe.send(op) } }, "the sends")
        probe.gate.submitBookkeeping(9) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0], "the submitter returned without performing anything")
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 9, 1, 2])
        XCTAssertEqual(Set(probe.performers.value), [owner])
    }

    /// The state a draining owner leaves for a parked sender: ownerless, work pending, reserved. Bookkeeping
    /// queues behind it and returns; the parked sender, coming back, performs it with the rest.
    func assertBookkeepingLeavesAGateHandedOffToTheParkedSenders(
        ordered: Bool, performedThen expected: [Int], file: StaticString = #filePath, line: UInt = #line
    ) {
        let probe = Probe(ordered: ordered)
        probe.gate.lock.lock()
        probe.gate.remote.append(1)
        probe.gate.parkedSenders = 1
        probe.gate.word.set(underLock: 1)
        probe.gate.lock.unlock()

        probe.submitBookkeeping(7)
        XCTAssertEqual(probe.performed.value, [], "left for the parked sender", file: file, line: line)
        XCTAssertEqual(probe.doneInPlace.value, [], file: file, line: line)
        XCTAssertEqual(probe.gate.word.state, 1, "still reserved", file: file, line: line)

        // The parked sender comes back and takes the gate: it performs what was queued, the bookkeeping too.
        probe.gate.lock.lock()
        probe.gate.parkedSenders = 0
        probe.gate.lock.unlock()
        probe.send(2)
        XCTAssertEqual(probe.performed.value, expected, file: file, line: line)
        XCTAssertEqual(probe.gate.word.state, 0, "idle again", file: file, line: line)
    }

    func testBookkeepingNeverTakesAnUnorderedGateHandedOffToTheSendersParkedOnTheFullBacklog() {
        assertBookkeepingLeavesAGateHandedOffToTheParkedSenders(ordered: false, performedThen: [7, 1, 2])
    }

    func testBookkeepingNeverTakesAnOrderedGateHandedOffToTheSendersParkedOnTheFullBacklog() {
        assertBookkeepingLeavesAGateHandedOffToTheParkedSenders(ordered: true, performedThen: [1, 7, 2])
    }

    // MARK: submitBookkeepingBehindQueued (an input's end, on an unordered gate)

    func testBookkeepingBehindQueuedOnAnIdleGateIsPerformedByTheCallerAndLeavesTheGateIdle() {
        let probe = Probe(ordered: false)
        probe.gate.submitBookkeepingBehindQueued(5) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [5])
        XCTAssertEqual(probe.performers.value, [currentThreadID])
        XCTAssertEqual(probe.gate.word.state, 0, "idle again")
        XCTAssertEqual(probe.gate.queuedCount, 0)
    }

    func testBookkeepingBehindQueuedOnAGateOwnedByAnotherThreadIsLeftToItsOwnerBehindTheQueuedEvents() {
        let probe = Probe(ordered: false)
        let (ownerDone, owner) = probe.ownOnAnotherThread()
        waitOrFail(startThread { for op in [1, 2] { probe.send(op) } }, "the sends")
        probe.gate.submitBookkeepingBehindQueued(9) { probe.perform($0) }
        XCTAssertEqual(probe.performed.value, [0], "the submitter returned without performing anything")
        // Events sent after it go behind it.
        waitOrFail(startThread { probe.send(3) }, "the last send")
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value, [0, 1, 2, 9, 3], "behind the events queued before it, not before them")
        XCTAssertEqual(Set(probe.performers.value), [owner], "all performed by the owner")
        XCTAssertEqual(probe.gate.word.state, 0, "idle again")
    }

    /// From inside an operation: a reentrant event goes before what other threads queued, the bookkeeping
    /// behind it — and so behind the reentrant event too.
    func testBookkeepingBehindQueuedFromTheOwnerGoesBehindWhatOtherThreadsQueued() {
        let gate = SerialGate<Int>()
        let performed = Locked<[Int]>([])
        let performers = Locked<[UInt]>([])
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let perform = Locked<(@Sendable (Int) -> Void)?>(nil)
        perform.value = { op in
            performed.mutate { $0.append(op) }
            performers.mutate { $0.append(currentThreadID) }
            guard op == 0 else { return }
            inside.signal()
            resume.wait()
            let body = perform.value!
            gate.submitBookkeepingBehindQueued(9) { body($0) }
            gate.submitEvent(5) { body($0) }
        }
        let body = perform.value!
        let ownerID = Locked<UInt>(0)
        let ownerDone = startThread {
            ownerID.value = currentThreadID
            gate.submitEvent(0) { body($0) }
        }
        waitOrFail(inside, "the owner inside operation 0")
        waitOrFail(startThread { for op in [1, 2] { gate.submitEvent(op) { body($0) } } }, "the sends")
        resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(performed.value, [0, 5, 1, 2, 9])
        XCTAssertEqual(Set(performers.value), [ownerID.value], "all performed by the owner")
        XCTAssertEqual(gate.word.state, 0, "idle again")
        XCTAssertEqual(gate.queuedCount, 0)
    }

    /// With nothing queued by other threads, the owner's bookkeeping is performed after its current operation
    /// and its reentrant submissions, before the gate is released.
    func testBookkeepingBehindQueuedFromTheOwnerWithNothingQueuedRunsBeforeTheGateIsReleased() {
        let gate = SerialGate<Int>()
        let performed = Locked<[Int]>([])
        let perform = Locked<(@Sendable (Int) -> Void)?>(nil)
        perform.value = { op in
            performed.mutate { $0.append(op) }
            guard op == 0 else { return }
            let body = perform.value!
            gate.submitBookkeepingBehindQueued(9) { body($0) }
            gate.submitEvent(5) { body($0) }
            XCTAssertEqual(performed.value, [0], "nothing performed inside the operation")
        }
        let body = perform.value!
        gate.submitEvent(0) { body($0) }
        XCTAssertEqual(performed.value, [0, 5, 9])
        XCTAssertEqual(gate.word.state, 0, "idle again")
        XCTAssertEqual(gate.queuedCount, 0)
    }

    /// Never parks: on a full backlog it is queued past the bound.
    func testBookkeepingBehindQueuedNeverWaitsForRoomInTheBacklog() {
        let probe = Probe(ordered: false)
        let (ownerDone, _) = probe.ownOnAnotherThread()
        let limit = SerialGate<Int>.backlogLimit
        waitOrFail(startThread { for op in 1...limit { probe.send(op) } }, "filling the backlog")
        XCTAssertEqual(probe.gate.queuedCount, limit)
        waitOrFail(startThread { probe.gate.submitBookkeepingBehindQueued(-1) { probe.perform($0) } }, "the submission")
        XCTAssertEqual(probe.gate.queuedCount, limit + 1, "past the bound")
        probe.resume.signal()
        waitOrFail(ownerDone, "the owner's return")
        XCTAssertEqual(probe.performed.value.last, -1, "behind the full backlog")
        XCTAssertEqual(probe.performed.value.count, limit + 2)
    }
}
