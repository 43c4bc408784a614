import Binding
import Dispatch
import Foundation
import Observable
import Synchronization
import Testing

// Issue 42, bugs 4, 5a and 6: a command made on a custom actor starts its work there in the order of the
// executions; a command made in nonisolated code never runs its (non-`Sendable`) work twice at once, even
// with concurrent execution; and a send made on a subscriber's own custom actor is delivered at once, as on
// the main actor.

/// Executes `command` `perThread` times from each of `threads` threads at once, and waits for them.
private func executeFromThreads<Output, Failure>(
    _ command: Command<Void, Output, Failure>, threads: Int, perThread: Int
) -> Bool where Output: Sendable {
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
        Thread {
            for _ in 0..<perThread { command.execute(()) }
            done.signal()
        }.start()
    }
    return (0..<threads).allSatisfy { _ in done.wait(timeout: .now() + 60) == .success }
}

/// Bug 5a: a nonisolated command whose synchronous work increments a captured `var`, executed
/// concurrently; returns the count and what it should be.
private func countConcurrentSynchronousExecutions() -> (counted: Int, expected: Int, finished: Bool) {
    var count = 0
    let command = Command<Void, Void, Never>(allowsConcurrentExecution: true) { count += 1 }
    let finished = executeFromThreads(command, threads: 4, perThread: 2_000)
    // The executions a delivering thread took over have run once `command` is idle and released.
    return (command.isExecuting ? -1 : count, 8_000, finished)
}

/// The same with the closure that returns the work's signal: the closure itself must not overlap.
private func countConcurrentSignalClosures() -> (counted: Int, expected: Int, finished: Bool) {
    var count = 0
    let command = Command<Void, Int, Never>(allowsConcurrentExecution: true) { () -> Signal<Int, Never> in
        count += 1
        return Signal(value: count)
    }
    let finished = executeFromThreads(command, threads: 4, perThread: 2_000)
    return (command.isExecuting ? -1 : count, 8_000, finished)
}

/// An actor whose command's work appends to the actor's own state, without `await`.
actor ExecutionLog {
    private(set) var inputs: [Int] = []

    func makeCommand() -> Command<Int, Void, Never> {
        Command(allowsConcurrentExecution: true) { (input: Int) in self.inputs.append(input) }
    }
}

/// An actor that subscribes to a subject and sends into it, both on the actor.
actor SubscriberOnAnActor {
    private var received: [Int] = []
    private var subscription: (any Disposable)?

    func follow(_ subject: Subject<Int, Never>) {
        subscription = subject.subscribe(next: { value in self.received.append(value) })
    }

    /// Sends `value` on the actor and returns what the subscriber had received right after the send.
    func send(_ value: Int, into subject: Subject<Int, Never>) -> [Int] {
        subject.send(value)
        return received
    }

    /// The same, from a task isolated to the actor that the actor did not start through Tether.
    func sendFromAnIsolatedTask(_ value: Int, into subject: Subject<Int, Never>) async -> [Int] {
        await Task { () -> [Int] in
            subject.send(value)
            return self.received
        }.value
    }
}

@Suite struct CommandIsolationRegressionTests {
    @Test func testCommandMadeOnACustomActorStartsItsWorkInTheOrderOfTheExecutions() async {
        let rounds = 4
        let executions = 5_000
        for round in 0..<rounds {
            let log = ExecutionLog()
            let command = await log.makeCommand()
            let executed = DispatchSemaphore(value: 0)
            Thread {
                for input in 0..<executions { command.execute(input) }
                executed.signal()
            }.start()
            #expect(executed.wait(timeout: .now() + 60) == .success)
            let deadline = Date().addingTimeInterval(60)
            while await log.inputs.count < executions, Date() < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            let inputs = await log.inputs
            let inversions = zip(inputs, inputs.dropFirst()).filter { $0 > $1 }.count
            #expect(inputs.count == executions, "round \(round): executions were lost")
            #expect(inversions == 0, "round \(round): the work ran out of order")
        }
    }

    @Test func testNonisolatedCommandNeverRunsItsSynchronousWorkTwiceAtOnce() {
        for round in 0..<4 {
            let (counted, expected, finished) = countConcurrentSynchronousExecutions()
            #expect(finished, "round \(round): an execute did not return")
            #expect(counted == expected, "round \(round): increments were lost (or an execution is still running)")
        }
    }

    @Test func testNonisolatedCommandNeverRunsItsSignalClosureTwiceAtOnce() {
        for round in 0..<4 {
            let (counted, expected, finished) = countConcurrentSignalClosures()
            #expect(finished, "round \(round): an execute did not return")
            #expect(counted == expected, "round \(round): increments were lost (or an execution is still running)")
        }
    }

    @Test func testSendOnTheSubscribersOwnCustomActorIsDeliveredAtOnce() async {
        let subscriber = SubscriberOnAnActor()
        let subject = Subject<Int, Never>()
        await subscriber.follow(subject)
        let afterFirst = await subscriber.send(1, into: subject)
        #expect(afterFirst == [1], "a send on the subscriber's actor is delivered before it returns")
        let afterSecond = await subscriber.sendFromAnIsolatedTask(2, into: subject)
        #expect(afterSecond == [1, 2])
    }
}
