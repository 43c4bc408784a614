import Binding
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Stress: `Command` executions from several threads; bindings whose targets die while threads send.
final class StressCommandTests: ResourceCheckedTestCase {
    struct WorkFailure: Error, Equatable {}

    /// Counts work running at once (the `allowsConcurrentExecution: false` contract: never two).
    final class WorkGauge: Sendable {
        let running = Atomic<Int>(0)
        let maximum = Atomic<Int>(0)
        let started = Atomic<Int>(0)

        func enter() {
            started.add(1, ordering: .relaxed)
            let now = running.add(1, ordering: .acquiringAndReleasing).newValue
            var seen = maximum.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = maximum.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                if exchanged { break }
                seen = original
            }
        }

        func leave() { running.subtract(1, ordering: .acquiringAndReleasing) }
    }

    /// Work that runs on a thread of its own for a moment, then sends its input (or fails on odd inputs
    /// when `failOdd`), so that executions overlap in time.
    static func work(_ input: Int, gauge: WorkGauge, failOdd: Bool) -> Signal<Int, WorkFailure> {
        Signal { observer in
            gauge.enter()
            let thread = Thread {
                spin(2_000)
                gauge.leave()
                if failOdd && input % 2 == 1 {
                    observer.sendError(WorkFailure())
                } else {
                    observer.send(input)
                    observer.sendCompleted()
                }
            }
            thread.start()
            return nil
        }
    }

    func testExecutionsFromEightThreadsWithoutConcurrencyRunOneAtATimeAndAccountForEveryAttempt() {
        let gauge = WorkGauge()
        let command = Command<Int, Int, WorkFailure> { input in Self.work(input, gauge: gauge, failOdd: true) }
        let executing = GrammarMonitor<Bool>()
        var repeats = 0
        var last: Bool?
        let lastSeen = Atomic<Int>(-1)  // mirrors `last` for polling from the test thread
        let executingValues = Atomic<Int>(0)  // counted for polling from the test thread
        executing.onValue = { value in
            if let last, last == value { repeats += 1 }
            last = value
            lastSeen.store(value ? 1 : 0, ordering: .releasing)
            executingValues.add(1, ordering: .releasing)
        }
        let executingSubscription = executing.subscribe(to: command.executing)
        let executions = GrammarMonitor<Signal<Int, Never>>()
        let executionsSubscription = executions.subscribe(to: command.executionSignals)
        let errors = GrammarMonitor<Int>()
        let errorsSubscription = errors.subscribe(to: command.errors.map { _ in 0 })

        // Each thread keeps trying until `runsPerThread` of its attempts ran: most attempts are refused
        // (.disabled) while another thread's execution runs.
        let runsPerThread = StressScale.scaled(100)
        let attempts = Atomic<Int>(0)
        let disabled = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let succeeded = Atomic<Int>(0)
        let results = DispatchGroup()
        runThreads(8) { thread in
            var ran = 0
            var input = thread
            while ran < runsPerThread {
                var refused = false
                results.enter()
                command.execute(input).subscribe(
                    next: { _ in succeeded.add(1, ordering: .relaxed) },
                    error: { error in
                        switch error {
                        case .disabled:
                            refused = true  // synchronously, inside execute's subscription
                            disabled.add(1, ordering: .relaxed)
                        case .failed: failed.add(1, ordering: .relaxed)
                        }
                        results.leave()
                    },
                    completed: { results.leave() })
                attempts.add(1, ordering: .relaxed)
                if !refused { ran += 1 }
                input += 8
            }
        }
        XCTAssertEqual(results.wait(timeout: .now() + 60), .success, "every execution ended")
        // The outputs are delivered in order, by one thread at a time, and may lag behind the executions
        // (a descheduled delivering thread: each execution's own subscribers hear its end directly). So a
        // `false` on `executing` may be an old one: wait for the last, the initial value plus a
        // true/false pair per execution. Then disposing (which waits for a delivery in flight) makes the
        // monitors' counts safe to read here.
        let ranSoFar = gauge.started.load(ordering: .relaxed)
        waitUntil { executingValues.load(ordering: .acquiring) >= 1 + 2 * ranSoFar }
        XCTAssertFalse(command.isExecuting)
        executingSubscription.dispose()
        executionsSubscription.dispose()
        errorsSubscription.dispose()
        XCTAssertEqual(gauge.maximum.load(ordering: .relaxed), 1, "two executions ran at once")
        let ran = gauge.started.load(ordering: .relaxed)
        XCTAssertEqual(ran, 8 * runsPerThread)
        XCTAssertEqual(
            ran + disabled.load(ordering: .relaxed), attempts.load(ordering: .relaxed),
            "each attempt ran or was refused")
        XCTAssertEqual(succeeded.load(ordering: .relaxed) + failed.load(ordering: .relaxed), ran)
        XCTAssertGreaterThan(ran, 0)
        executing.assertWellFormed("executing")
        executions.assertWellFormed("executionSignals")
        errors.assertWellFormed("errors")
        XCTAssertEqual(repeats, 0, "executing sent the same value twice in a row")
        XCTAssertEqual(last, false)
        XCTAssertEqual(
            executingValues.load(ordering: .relaxed), 1 + 2 * ran, "executing: true, then false, per execution")
        XCTAssertEqual(executions.nextCount, ran, "one execution signal per execution that ran")
        XCTAssertEqual(errors.nextCount, failed.load(ordering: .relaxed), "one error per failed execution")
    }

    func testConcurrentExecutionsFromEightThreadsAllRunAndTheCommandSettlesIdle() {
        let gauge = WorkGauge()
        let command = Command<Int, Int, WorkFailure>(allowsConcurrentExecution: true) { input in
            Self.work(input, gauge: gauge, failOdd: false)
        }
        let executing = GrammarMonitor<Bool>()
        let lastSeen = Atomic<Int>(-1)
        executing.onValue = { lastSeen.store($0 ? 1 : 0, ordering: .releasing) }
        let executingSubscription = executing.subscribe(to: command.executing)
        let attempts = StressScale.scaled(2_000)
        let outputs = Atomic<Int>(0)
        let results = DispatchGroup()
        runThreads(8) { thread in
            for attempt in stride(from: thread, to: attempts, by: 8) {
                results.enter()
                command.execute(attempt).subscribe(
                    next: { _ in outputs.add(1, ordering: .relaxed) }, error: { _ in results.leave() },
                    completed: { results.leave() })
            }
        }
        XCTAssertEqual(results.wait(timeout: .now() + 60), .success)
        waitUntil { !command.isExecuting && lastSeen.load(ordering: .acquiring) == 0 }
        executingSubscription.dispose()
        XCTAssertEqual(outputs.load(ordering: .relaxed), attempts, "no execution was refused or lost")
        XCTAssertEqual(gauge.started.load(ordering: .relaxed), attempts)
        executing.assertWellFormed("executing")
    }

    func testCancellingFromAnotherThreadWhileEightThreadsExecuteEndsEveryExecutionOnce() {
        let gauge = WorkGauge()
        let command = Command<Int, Int, WorkFailure>(allowsConcurrentExecution: true) { input in
            Self.work(input, gauge: gauge, failOdd: false)
        }
        let monitors = Locked<[GrammarMonitor<Int>]>([])
        let stop = Flag()
        runThreads(9) { thread in
            if thread == 8 {
                for _ in 0..<StressScale.scaled(200) {
                    command.cancel()
                    spin(5_000)
                }
                stop.raise()
                return
            }
            var attempt = 0
            while !stop.isRaised {
                let monitor = GrammarMonitor<Int>()
                _ = monitor.subscribe(to: command.execute(attempt).catch { _ in Signal<Int, Never>.empty })
                monitors.mutate { $0.append(monitor) }
                attempt += 1
            }
        }
        command.cancel()
        waitUntil { !command.isExecuting }
        let all = monitors.value
        XCTAssertGreaterThan(all.count, 0)
        waitUntil { all.allSatisfy { $0.terminalCount == 1 } }
        for monitor in all {
            monitor.assertWellFormed("execution")
            XCTAssertLessThanOrEqual(monitor.nextCount, 1)
        }
    }
}
