import Binding
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private struct LoginFailure: Error, Equatable {
    var reason = "wrong password"
}

private func flag(_ value: Bool) -> String { value ? "t" : "f" }

final class CommandTests: ResourceCheckedTestCase {
    // MARK: State transitions

    func testExecutingGoesFalseTrueFalseAroundAnExecution() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        let executing = command.executing.record(on: scheduler)
        let enabled = command.enabled.record(on: scheduler)

        scheduler.advance(by: .seconds(1))
        command.execute(())
        scheduler.run()

        XCTAssertEqual(executing.marbles(flag), "ft--f")
        XCTAssertEqual(enabled.marbles(flag), "tf--t")
        XCTAssertEqual(work.subscriptions, [TestSubscription(subscribed: .seconds(1), ended: .seconds(4))])
    }

    func testExecutingAndEnabledSendTheirCurrentValueFirst() throws {
        expectLiveSubscriptions("an execution is still pending on the TestScheduler when the test ends")
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        command.execute(())
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(command.executing.record().values, [true])
        XCTAssertEqual(command.enabled.record().values, [false])
        XCTAssertTrue(command.isExecuting)
        XCTAssertFalse(command.isEnabled)
    }

    func testEnabledFollowsTheEnabledInputAndExecution() throws {
        let scheduler = TestScheduler()
        let valid = try scheduler.hot("-f-t----f", values: ["t": true, "f": false])
        let work = try scheduler.cold("--|")
        let command = Command<Void, String, Never>(enabled: valid) { work.signal }
        let enabled = command.enabled.record(on: scheduler)
        scheduler.advance(by: .seconds(5))
        command.execute(())
        scheduler.run()
        // valid:    -f-t----f
        // execute:  -----x--     (the work takes 2 s)
        XCTAssertEqual(enabled.marbles(flag), "tf-t-f-tf")
    }

    func testEnabledInputCountsAsTrueUntilItSendsAValue() {
        let later = Subject<Bool, Never>()
        let command = Command<Void, Int, Never>(enabled: later) { Signal(value: 1) }
        XCTAssertTrue(command.isEnabled)
        XCTAssertEqual(command.execute(()).record().values, [1])
        later.send(false)
        XCTAssertFalse(command.isEnabled)
    }

    // MARK: Executing while disabled

    func testExecutingWhileDisabledFailsWithDisabledAndStartsNothing() {
        var started = 0
        let command = Command<Void, Int, LoginFailure>(enabled: Signal(value: false)) {
            started += 1
            return Signal(value: 1)
        }
        let executing = command.executing.record()
        let executions = command.executionSignals.record()
        let errors = command.errors.record()

        let result = command.execute(()).record()

        XCTAssertEqual(result.events, [.error(.disabled, at: .zero)])
        XCTAssertEqual(started, 0)
        XCTAssertEqual(executing.values, [false])
        XCTAssertEqual(executions.values.count, 0)
        XCTAssertEqual(errors.values, [])
        XCTAssertEqual("\(CommandError<LoginFailure>.disabled)", "The command is disabled and cannot be executed")
    }

    func testExecutingWhileAnExecutionRunsIsDisabledWithoutConcurrency() throws {
        expectLiveSubscriptions("an execution is still pending on the TestScheduler when the test ends")
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        command.execute(())
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(command.execute(()).record().failure, .disabled)
        XCTAssertEqual(work.subscriptions.count, 1)
    }

    // MARK: Eager, replayed executions

    func testExecuteStartsTheWorkAtOnceWithoutSubscribers() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("-r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        command.execute(())
        XCTAssertEqual(work.subscriptions.count, 1)
        scheduler.run()
        XCTAssertFalse(command.isExecuting)
    }

    func testExecutionReplaysItsEventsToLateSubscribers() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("-a-b|", values: ["a": 1, "b": 2])
        let command = Command<Void, Int, Never> { work.signal }
        let execution = command.execute(())
        scheduler.advance(by: .seconds(2))
        let late = execution.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(
            late.events, [.next(1, at: .seconds(2)), .next(2, at: .seconds(3)), .completed(at: .seconds(4))])
        let afterEnd = execution.record(on: scheduler)
        XCTAssertEqual(afterEnd.values, [1, 2])
        XCTAssertTrue(afterEnd.isCompleted)
        XCTAssertEqual(work.subscriptions.count, 1, "replaying never restarts the work")
    }

    func testExecuteInputReachesTheWork() {
        let command = Command<String, Int, Never> { text in Signal(value: text.count) }
        XCTAssertEqual(command.execute("four").record().values, [4])
    }

    // MARK: executionSignals and errors

    func testExecutionSignalsSendsEachExecutionBeforeItsWork() throws {
        let scheduler = TestScheduler()
        let works = [try scheduler.cold("a|", values: ["a": 1]), try scheduler.cold("-b|", values: ["b": 2])]
        var next = 0
        let command = Command<Void, Int, Never>(allowsConcurrentExecution: true) {
            defer { next += 1 }
            return works[next].signal
        }
        var inner: [TestRecorder<Int, Never>] = []
        command.executionSignals.subscribe(next: { execution in
            // The closure has been called (RAC calls the signal block first), the work not started.
            XCTAssertEqual(works[next - 1].subscriptions.count, 0, "sent before the work starts")
            inner.append(execution.record(on: scheduler))
        })
        command.execute(())
        command.execute(())
        scheduler.run()
        XCTAssertEqual(inner.map(\.values), [[1], [2]])
        XCTAssertEqual(inner.map(\.isCompleted), [true, true])
    }

    func testFailuresGoToErrorsAndCompleteTheExecutionSignal() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("-a-#", values: ["a": 1], error: LoginFailure())
        let command = Command<Void, Int, LoginFailure> { work.signal }
        let errors = command.errors.record(on: scheduler)
        var inner: TestRecorder<Int, Never>?
        command.executionSignals.subscribe(next: { inner = $0.record(on: scheduler) })
        let executing = command.executing.record(on: scheduler)

        scheduler.advance(by: .seconds(1))
        let result = command.execute(()).record(on: scheduler)
        scheduler.run()

        XCTAssertEqual(result.events, [.next(1, at: .seconds(2)), .error(.failed(LoginFailure()), at: .seconds(4))])
        XCTAssertEqual(errors.events, [.next(LoginFailure(), at: .seconds(4))])
        XCTAssertEqual(inner?.marbles, "-1-|")
        XCTAssertEqual(executing.marbles(flag), "ft--f")
        XCTAssertFalse(errors.isTerminated, "errors itself never fails")
    }

    func testErrorsAreSentBeforeExecutingTurnsFalse() throws {
        let command = Command<Void, Int, LoginFailure> { Signal(error: LoginFailure()) }
        var log: [String] = []
        command.errors.subscribe(next: { _ in log.append("error") })
        command.executing.subscribe(next: { log.append("executing \($0)") })
        command.execute(()).subscribe(error: { _ in log.append("execution failed") })
        XCTAssertEqual(log, ["executing false", "executing true", "error", "executing false", "execution failed"])
    }

    func testCompletionHandlerMayExecuteAgain() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("-r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        var second: TestRecorder<Int, CommandError<Never>>?
        command.execute(()).subscribe(completed: { second = command.execute(()).record(on: scheduler) })
        scheduler.run()
        XCTAssertEqual(second?.values, [1], "the command was idle when the first execution's subscribers heard the end")
        XCTAssertEqual(work.subscriptions.count, 2)
    }

    // MARK: Concurrency option

    func testConcurrentExecutionsKeepTheCommandEnabledAndExecutingUntilTheLastEnds() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": 1])
        let command = Command<Void, Int, Never>(allowsConcurrentExecution: true) { work.signal }
        let executing = command.executing.record(on: scheduler)
        let enabled = command.enabled.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        command.execute(())
        scheduler.advance(by: .seconds(2))
        command.execute(())
        scheduler.run()
        XCTAssertEqual(executing.marbles(flag), "ft----f")
        XCTAssertEqual(enabled.marbles(flag), "t")
        XCTAssertEqual(work.subscriptions.count, 2)
    }

    // MARK: Cancellation and lifetime

    func testCancelDisposesTheWorkAndCompletesTheExecution() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("---r|", values: ["r": 1])
        let command = Command<Void, Int, Never> { work.signal }
        let errors = command.errors.record()
        let execution = command.execute(()).record(on: scheduler)
        let executing = command.executing.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        command.cancel()
        scheduler.run()
        XCTAssertEqual(execution.events, [.completed(at: .seconds(1))])
        XCTAssertEqual(work.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(1))])
        XCTAssertEqual(executing.marbles(flag), "tf")
        XCTAssertEqual(errors.values, [])
        XCTAssertTrue(command.isEnabled)
        command.cancel()  // nothing in flight: no-op
        XCTAssertEqual(executing.values, [true, false])
    }

    func testOutputsCompleteWhenTheCommandIsReleased() {
        var command: Command<Void, Int, Never>? = Command { Signal(value: 1) }
        weak let weakCommand = command
        let executing = command!.executing.record()
        let enabled = command!.enabled.record()
        let executions = command!.executionSignals.record()
        let errors = command!.errors.record()
        command = nil
        XCTAssertNil(weakCommand)
        XCTAssertTrue(executing.isCompleted)
        XCTAssertTrue(enabled.isCompleted)
        XCTAssertTrue(executions.isCompleted)
        XCTAssertTrue(errors.isCompleted)
    }

    func testReleasingTheCommandDisposesItsEnabledInputSubscription() {
        let disposed = Locked(false)
        let input = Signal<Bool, Never> { observer in
            observer.send(false)
            return AnyDisposable {
                withExtendedLifetime(observer) {}  // a recipe keeps its observer to keep the subscription
                disposed.mutate { $0 = true }
            }
        }
        var command: Command<Void, Int, Never>? = Command(enabled: input) { Signal(value: 1) }
        XCTAssertEqual(command?.isEnabled, false)
        XCTAssertFalse(disposed.value)
        command = nil
        XCTAssertTrue(disposed.value)
    }

    // MARK: synchronous initializer

    func testSynchronousClosureRunsInsideExecute() {
        let log = Locked<[String]>([])
        let signIn = Command { log.mutate { $0.append("signing in") } }
        let result = signIn.execute(())
        log.mutate { $0.append("execute returned") }
        XCTAssertEqual(log.value, ["signing in", "execute returned"])
        XCTAssertFalse(signIn.isExecuting, "the execution ended inside execute")
        let recorded = result.record()
        XCTAssertEqual(recorded.values.count, 1)
        XCTAssertTrue(recorded.isCompleted)
    }

    func testSynchronousClosureResultIsTheExecutionsValue() {
        let count = Command { (name: String) in name.count }
        let executing = count.executing.record()
        XCTAssertEqual(count.execute("notes.txt").record().values, [9])
        XCTAssertEqual(executing.values, [false, true, false])
    }

    func testSynchronousTypedThrowFailsTheExecutionAndGoesToErrors() {
        let command = Command { () throws(LoginFailure) -> Bool in throw LoginFailure(reason: "offline") }
        let errors = command.errors.record()
        let result = command.execute(()).record()
        XCTAssertEqual(result.failure, .failed(LoginFailure(reason: "offline")))
        XCTAssertEqual(errors.values, [LoginFailure(reason: "offline")])
    }

    func testClosureReturningASignalStillPicksTheSignalInitializer() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": 1])
        // Failure is Never on both sides: the synchronous initializer could take it with Output ==
        // Signal<Int, Never>; the Signal initializer must win, so the work's value is the output.
        let command = Command { (_: Void) in work.signal }
        let values = command.execute(()).record()
        scheduler.run()
        XCTAssertEqual(values.values, [1])
        let typed: Command<Void, Int, Never> = command
        XCTAssertFalse(typed.isExecuting)
    }

    func testClosureThatAwaitsStillPicksTheAsyncInitializer() {
        @Sendable func fetch() async -> Int { 7 }
        let command = Command { await fetch() }
        let done = expectation(description: "completed")
        let values = Locked<[Int]>([])
        command.execute(()).subscribe(next: { v in values.mutate { $0.append(v) } }, completed: { done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values.value, [7])
    }

    // MARK: async initializer

    func testAsyncCommandSendsTheResultThenCompletes() {
        let command = Command<Int, Int, Never> { (value: Int) async -> Int in value * 2 }
        let done = expectation(description: "completed")
        let values = Locked<[Int]>([])
        command.execute(21).subscribe(
            next: { value in values.mutate { $0.append(value) } }, completed: { done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values.value, [42])
    }

    func testAsyncCommandTypedFailureGoesToErrors() {
        let command = Command(execute: { (_: Void) async throws(LoginFailure) -> Bool in
            throw LoginFailure(reason: "offline")
        })
        let failed = expectation(description: "failed")
        let errors = command.errors.record()
        command.execute(()).subscribe(error: { error in
            XCTAssertEqual(error, .failed(LoginFailure(reason: "offline")))
            failed.fulfill()
        })
        wait(for: [failed], timeout: 10)
        let idle = expectation(description: "idle")
        command.executing.subscribe(next: { if !$0 { idle.fulfill() } })
        wait(for: [idle], timeout: 10)
        XCTAssertEqual(errors.values, [LoginFailure(reason: "offline")])
    }

    func testAsyncCommandWithUntypedThrowsFailsWithAnyError() {
        let command = Command { (_: Void) async throws -> Int in throw LoginFailure() }
        let failed = expectation(description: "failed")
        command.execute(()).subscribe(error: { error in
            XCTAssertEqual(error.failure as? LoginFailure, LoginFailure())
            failed.fulfill()
        })
        wait(for: [failed], timeout: 10)
    }

    func testCancellingAnAsyncExecutionCancelsItsTask() {
        let started = expectation(description: "started")
        let cancelled = expectation(description: "task cancelled")
        let command = Command<Void, Int, Never> { (_: Void) async -> Int in
            started.fulfill()
            await withTaskCancellationHandler {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
            } onCancel: {
                cancelled.fulfill()
            }
            return 1
        }
        let completed = expectation(description: "execution completed")
        let values = Locked<[Int]>([])
        command.execute(()).subscribe(next: { v in values.mutate { $0.append(v) } }, completed: { completed.fulfill() })
        wait(for: [started], timeout: 10)
        command.cancel()
        wait(for: [cancelled, completed], timeout: 10)
        XCTAssertEqual(values.value, [], "a cancelled execution sends no value")
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: Threads

    func testExecutionsFromManyThreadsNeverOverlapWithoutConcurrency() {
        let detector = OverlapCounter()
        let queue = DispatchQueue(label: "work", attributes: .concurrent)
        let command = Command<Int, Int, Never> { value in
            Signal { observer in
                detector.enter()
                queue.async {
                    detector.leave()
                    observer.send(value)
                    observer.sendCompleted()
                }
                return nil
            }
        }
        let started = Locked(0)
        let ended = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<200 {
                ended.enter()
                command.execute(worker * 1000 + index).subscribe(
                    next: { _ in started.mutate { $0 += 1 } },
                    error: { error in
                        XCTAssertEqual(error, .disabled)
                        ended.leave()
                    },
                    completed: { ended.leave() })
            }
        }
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertGreaterThan(started.value, 0)
        XCTAssertFalse(command.isExecuting)
        XCTAssertTrue(command.isEnabled)
    }

    func testConcurrentExecutionsFromManyThreadsAllFinishAndOutputsSettle() {
        let queue = DispatchQueue(label: "work", attributes: .concurrent)
        let command = Command<Int, Int, LoginFailure>(allowsConcurrentExecution: true) { value in
            Signal { observer in
                queue.async {
                    if value.isMultiple(of: 10) {
                        observer.sendError(LoginFailure())
                    } else {
                        observer.send(value)
                        observer.sendCompleted()
                    }
                }
                return nil
            }
        }
        // The outputs settle after the executions' own subscribers hear the end, possibly on another
        // thread: wait until every failure arrived and `executing` went back to false.
        let outputs = Locked((errors: 0, executions: 0, transitions: [Bool]()))
        let settled = DispatchSemaphore(value: 0)
        func check(_ state: (errors: Int, executions: Int, transitions: [Bool])) {
            if state.errors == 80 && state.executions == 800 && state.transitions.last == false { settled.signal() }
        }
        command.errors.subscribe(next: { _ in
            outputs.mutate {
                $0.errors += 1
                check($0)
            }
        })
        command.executionSignals.subscribe(next: { _ in
            outputs.mutate {
                $0.executions += 1
                check($0)
            }
        })
        command.executing.subscribe(next: { value in
            outputs.mutate {
                $0.transitions.append(value)
                check($0)
            }
        })
        let ended = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<100 {
                ended.enter()
                command.execute(worker * 100 + index).subscribe(
                    error: { _ in ended.leave() }, completed: { ended.leave() })
            }
        }
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success)
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(settled.wait(timeout: .now() + 30), .success)
        let transitions = outputs.value.transitions
        XCTAssertEqual(transitions, transitions.enumerated().map { $0.offset % 2 == 1 }, "distinct, alternating")
    }
}

/// Counts overlapping enter/leave pairs.
final class OverlapCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private(set) var overlaps = 0
    func enter() {
        lock.withLock {
            if inside > 0 { overlaps += 1 }
            inside += 1
        }
    }
    func leave() { lock.withLock { inside -= 1 } }
}
