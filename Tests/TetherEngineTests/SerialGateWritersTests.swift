import Dispatch
import Foundation
import Synchronization
import TetherEngine
import XCTest

/// The ordered gate's writer exclusion (`SerialGate+Writers`), what a property's `modify` stands on: one
/// writer at a time, parked writers woken one by one, plain writes waiting for the writer, and the room in
/// the backlog waited for before the writer is taken.
final class SerialGateWritersTests: XCTestCase {
    private final class Shared: @unchecked Sendable {
        // Safety: `value` is touched only by the thread holding `writer` — the exclusion under test — or
        // after the threads that touched it have been joined; `performed` only by the gate's owner.
        let gate = SerialGate<Int>()
        let writer = OwnerWord()
        let acquired = Atomic<Int>(0)
        var value = 0
        var performed: [Int] = []

        func perform(_ op: Int) { performed.append(op) }
    }

    /// A thread that takes the writer, notes it in `acquired`, and releases it; signals the result when done.
    private func startWriter(_ shared: Shared) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            shared.gate.acquireWriter(shared.writer, perform: shared.perform, whileLocked: {})
            shared.acquired.store(1, ordering: .sequentiallyConsistent)
            shared.gate.releaseWriter(shared.writer)
            done.signal()
        }
        return done
    }

    func testAWriterHoldsTheWriterFromAcquireToRelease() {
        let shared = Shared()
        let read = shared.gate.acquireWriter(shared.writer, perform: shared.perform, whileLocked: { shared.value + 1 })
        XCTAssertEqual(read, 1, "the body's result")
        XCTAssertTrue(shared.writer.isOwned(by: currentThreadID))
        shared.gate.releaseWriter(shared.writer)
        XCTAssertFalse(shared.writer.isOwned)
        XCTAssertEqual(shared.performed, [], "nothing queued: nothing performed")
    }

    func testASecondWriterWaitsUntilTheFirstReleases() {
        let shared = Shared()
        shared.gate.acquireWriter(shared.writer, perform: shared.perform, whileLocked: {})
        let done = startWriter(shared)
        // However far the second writer got, it cannot hold the writer yet.
        usleep(20_000)
        XCTAssertEqual(shared.acquired.load(ordering: .sequentiallyConsistent), 0, "two writers at once")
        shared.gate.releaseWriter(shared.writer)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "the parked writer was never woken")
        XCTAssertEqual(shared.acquired.load(ordering: .sequentiallyConsistent), 1)
    }

    func testAPlainWriteWaitsForTheWriterAndDoesNotTakeIt() {
        let shared = Shared()
        shared.gate.waitForWriter(shared.writer)  // none held: returns at once
        shared.gate.acquireWriter(shared.writer, perform: shared.perform, whileLocked: {})
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            shared.gate.waitForWriter(shared.writer)
            shared.acquired.store(1, ordering: .sequentiallyConsistent)
            done.signal()
        }
        usleep(20_000)
        XCTAssertEqual(shared.acquired.load(ordering: .sequentiallyConsistent), 0, "the write passed the writer")
        shared.gate.releaseWriter(shared.writer)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "the waiting write was never woken")
        XCTAssertFalse(shared.writer.isOwned, "a plain write never holds the writer")
    }

    /// More writers than cores, each taking the writer many times: a plain counter changed only by the holder
    /// loses nothing, and every parked writer is woken in the end (wake-one: each release wakes the next).
    /// Under Thread Sanitizer, a writer that did not order the holders would be a race.
    func testWritersNeverOverlapAndNoneIsLeftParked() {
        let shared = Shared()
        XCTAssertTrue(
            onThreads(6) { index in
                for _ in 0..<20_000 {
                    // A plain write now and then, as a property's `set` between `modify`s.
                    if index == 0 { shared.gate.waitForWriter(shared.writer) }
                    let seen = shared.gate.acquireWriter(
                        shared.writer, perform: shared.perform, whileLocked: { shared.value })
                    shared.value = seen + 1
                    shared.gate.releaseWriter(shared.writer)
                }
            }, "writers were left parked")
        XCTAssertEqual(shared.value, 120_000)
        XCTAssertFalse(shared.writer.isOwned)
    }

    /// Issue 42, bug 1, at the engine's level: a writer takes the writer only once the backlog has room, so
    /// that its store — submitted without waiting — never waits for room while holding the writer (the thread
    /// that makes room, the gate's owner, may be waiting for the writer).
    func testAWriterWaitsForRoomInTheBacklogBeforeTakingTheWriter() {
        let shared = Shared()
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let ownerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // The owner: blocked inside operation 0 while the backlog fills.
            shared.gate.submitEventInOrder({ 0 }) { op in
                if op == 0 {
                    inside.signal()
                    resume.wait()
                }
                shared.perform(op)
            }
            ownerDone.signal()
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 60), .success)
        let limit = SerialGate<Int>.backlogLimit
        for op in 1...limit {
            shared.gate.submitInOrderWithoutWaiting({ op }, perform: shared.perform)
        }
        XCTAssertEqual(shared.gate.queuedCount, limit, "the backlog is full")
        let writerDone = startWriter(shared)
        usleep(20_000)
        XCTAssertEqual(
            shared.acquired.load(ordering: .sequentiallyConsistent), 0, "the writer was taken with the backlog full")
        XCTAssertFalse(shared.writer.isOwned)
        resume.signal()
        XCTAssertEqual(writerDone.wait(timeout: .now() + 60), .success, "the writer never got room")
        XCTAssertEqual(ownerDone.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(shared.performed, Array(0...limit), "every operation, once, in order")
    }
}
