import Binding
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Threads executing a concurrent command faster than its outputs' subscriber keeps up: the outputs
/// wait in a bounded backlog, so once the others stop, no `execute()` call is left delivering more than
/// that backlog of their outputs (issue 30, bug 3: the queue had no bound, and the thread that found it
/// idle delivered everything queued after it — for tens of seconds after the loops stopped).
final class CommandExecuteFloodTests: ResourceCheckedTestCase {
    func testNoExecuteCallKeepsDeliveringOtherThreadsOutputsAfterTheyStopped() {
        let command = Command<Int, Int, Never>(allowsConcurrentExecution: true) { Signal(value: $0) }
        let threads = 4
        let executions = StressScale.scaled(40_000)
        // Deliveries of `executionSignals` made on a thread inside one `execute` call once every other
        // thread had returned from its last `execute`: what one call keeps delivering for the others.
        let deliveriesAfterOthersStopped = (0..<threads).map { _ in Counter() }
        let mostInOneCall = Atomic<Int>(0)
        let finishedThreads = Atomic<Int>(0)
        let index = ThreadIndex()
        let subscription = command.executionSignals.subscribe(next: { _ in
            if let thread = index.current, finishedThreads.load(ordering: .acquiring) == threads - 1 {
                deliveriesAfterOthersStopped[thread].value.wrappingAdd(1, ordering: .relaxed)
            }
            // A subscriber slower than an `execute` call, so that the executing threads outrun it.
            var spin = 0
            for step in 0..<2_000 { spin &+= step &* step }
            index.sink.store(spin, ordering: .relaxed)
        })
        let finished = runThreads(threads, timeout: 300) { thread in
            index.current = thread
            for input in 0..<executions {
                deliveriesAfterOthersStopped[thread].value.store(0, ordering: .relaxed)
                command.execute(input)
                let delivered = deliveriesAfterOthersStopped[thread].value.load(ordering: .relaxed)
                mostInOneCall.store(max(mostInOneCall.load(ordering: .relaxed), delivered), ordering: .relaxed)
            }
            finishedThreads.wrappingAdd(1, ordering: .releasing)
        }
        XCTAssertTrue(finished)
        // What is left when the others stop is at most the bounded backlog (and the batch in flight).
        let bound = 3 * 4_096
        XCTAssertLessThanOrEqual(
            mostInOneCall.load(ordering: .relaxed), bound,
            "one execute() call delivered that many executions after the other threads stopped, of "
                + "\(threads * executions)")
        subscription.dispose()
    }
}

/// Which of `runThreads`' threads the calling thread is (thread-local).
private final class ThreadIndex: @unchecked Sendable {
    // Safety: each thread reads and writes only its own slot of the thread dictionary.
    let sink = Atomic<Int>(0)
    var current: Int? {
        get { Thread.current.threadDictionary["CommandExecuteFloodTests.index"] as? Int }
        set { Thread.current.threadDictionary["CommandExecuteFloodTests.index"] = newValue }
    }
}

private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
