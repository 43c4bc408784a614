import Binding
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Command` held against ReactiveCocoa 2.5's `RACCommandSpec`, case by case (each test is named after
/// the case it mirrors), and against what `RACCommand.m` does where the spec is silent: the signal
/// block runs before `executing` turns true, the work is subscribed after `executing` and `enabled`
/// have sent their new values, `allowsConcurrentExecution` is settable.
///
/// RAC's `[signal first]` (the current value of `executing` / `enabled`) is ``current(_:)`` here. The
/// "on the main thread" cases differ on purpose: Tether sends on the thread of the change (Linux has
/// no always-running main loop); those tests pin that instead.
final class RACCommandSpecTests: ResourceCheckedTestCase {
    private struct TestError: Error, Equatable {
        var code = 1
    }

    /// The value a `BehaviorSubject`-backed output sends first on subscription (RAC's `-first`).
    private func current(_ signal: Signal<Bool, Never>) -> Bool? {
        signal.record().values.first
    }

    private func simpleCommand() -> Command<Int, Int, Never> {
        Command { value in Signal(value: value) }
    }

    // MARK: with a simple signal block

    func testRACCommandSpecShouldBeEnabledByDefault() {
        let command = simpleCommand()
        XCTAssertFalse(command.allowsConcurrentExecution)
        XCTAssertEqual(current(command.enabled), true)
    }

    func testRACCommandSpecShouldNotBeExecutingByDefault() {
        XCTAssertEqual(current(simpleCommand().executing), false)
    }

    func testRACCommandSpecShouldCreateAnExecutionSignal() {
        let command = simpleCommand()
        var signalsReceived = 0
        var values: [Int] = []
        var completed = false
        command.executionSignals.subscribe(next: { signal in
            signalsReceived += 1
            signal.subscribe(next: { values.append($0) }, completed: { completed = true })
        })
        XCTAssertEqual(signalsReceived, 0)
        command.execute(7)
        XCTAssertEqual(signalsReceived, 1)
        XCTAssertEqual(values, [7])
        XCTAssertTrue(completed)
    }

    func testRACCommandSpecShouldReturnTheExecutionSignalFromExecute() {
        let result = simpleCommand().execute(7).record()
        XCTAssertEqual(result.values, [7])
        XCTAssertTrue(result.isCompleted)
    }

    func testRACCommandSpecShouldAlwaysSendExecutionSignalsOnTheMainThreadDiffersSentOnTheExecutingThread() {
        let command = simpleCommand()
        let receivedOn = Locked<UInt?>(nil)
        command.executionSignals.subscribe(next: { _ in receivedOn.mutate { $0 = threadID() } })
        let executor = runOnThread { command.execute(1) }
        XCTAssertEqual(receivedOn.value, executor)
    }

    func testRACCommandSpecShouldNotSendAnythingOnErrorsByDefault() {
        let command = simpleCommand()
        let errors = command.errors.record()
        XCTAssertTrue(command.execute(1).record().isCompleted)
        XCTAssertEqual(errors.values, [])
    }

    func testRACCommandSpecShouldBeExecutingWhileAnExecutionSignalIsRunning() {
        let command = simpleCommand()
        var seenWhileRunning: [Bool?] = []
        let subscription = command.executionSignals.subscribe(next: { signal in
            signal.subscribe(next: { _ in seenWhileRunning.append(self.current(command.executing)) })
        })
        defer { subscription.dispose() }  // the closure captures the command
        XCTAssertTrue(command.execute(1).record().isCompleted)
        XCTAssertEqual(seenWhileRunning, [true])
        XCTAssertEqual(current(command.executing), false)
    }

    func testRACCommandSpecShouldAlwaysUpdateExecutingOnTheMainThreadDiffersUpdatedOnTheExecutingThread() {
        let command = simpleCommand()
        let updatedOn = Locked<[UInt]>([])
        let subscription = command.executing.subscribe(next: { _ in
            updatedOn.mutate { $0.append(threadID()) }
        })
        let executor = runOnThread { command.execute(1) }
        subscription.dispose()
        XCTAssertEqual(updatedOn.value.count, 3)  // the current value on subscription, then true, false
        XCTAssertEqual(updatedOn.value.dropFirst(), [executor, executor])
    }

    func testRACCommandSpecShouldDeallocWithoutSubscribers() {
        var command: Command<Void, Void, Never>? = Command { Signal.empty }
        weak let released = command
        command = nil
        XCTAssertNil(released)
    }

    func testRACCommandSpecShouldCompleteSignalsOnTheMainThreadWhenDeallocatedDiffersOnTheReleasingThread() {
        let completedOn = Locked<[UInt]>([])
        let record: @Sendable () -> Void = { completedOn.mutate { $0.append(threadID()) } }
        let releaser = runOnThread {
            let command = Command<Void, Void, Never> { Signal.empty }
            command.executionSignals.subscribe(completed: record)
            command.executing.subscribe(completed: record)
            command.enabled.subscribe(completed: record)
            command.errors.subscribe(completed: record)
        }
        XCTAssertEqual(completedOn.value, Array(repeating: releaser, count: 4))
    }

    // MARK: signal block, executionSignals, errors

    func testRACCommandSpecShouldInvokeTheSignalBlockOncePerExecution() {
        var valuesReceived: [String] = []
        let command = Command<String, Never, Never> { value in
            valuesReceived.append(value)
            return Signal.empty
        }
        XCTAssertTrue(command.execute("foo").record().isCompleted)
        XCTAssertEqual(valuesReceived, ["foo"])
        XCTAssertTrue(command.execute("bar").record().isCompleted)
        XCTAssertEqual(valuesReceived, ["foo", "bar"])
    }

    func testRACCommandSpecShouldSendOnExecutionSignalsInOrderOfExecution() {
        let command = Command<[String], String, Never> { sequence in Signal(values: sequence) }
        let received = command.executionSignals.concat().record()
        XCTAssertTrue(command.execute(["foo", "bar"]).record().isCompleted)
        XCTAssertTrue(command.execute(["buzz", "baz"]).record().isCompleted)
        XCTAssertEqual(received.values, ["foo", "bar", "buzz", "baz"])
    }

    func testRACCommandSpecShouldWaitForAllSignalsToCompleteOrErrorBeforeExecutingSendsNo() {
        let command = Command<Subject<Int, TestError>, Int, TestError> { subject in subject.signal }
        command.allowsConcurrentExecution = true  // set after creation, as the spec does

        let first = Subject<Int, TestError>()
        command.execute(first)
        let second = Subject<Int, TestError>()
        command.execute(second)
        XCTAssertEqual(current(command.executing), true)

        first.sendError(TestError())
        XCTAssertEqual(current(command.executing), true)
        second.send(1)
        XCTAssertEqual(current(command.executing), true)
        second.sendCompleted()
        XCTAssertEqual(current(command.executing), false)
    }

    /// RAC's `allowsConcurrentExecution` is KVO-observable. Tether has no KVO: the property reads back
    /// what was set (from any thread), and what it changes — ``Command/enabled`` — is a signal.
    func testRACCommandSpecShouldHaveAllowsConcurrentExecutionBeObservableDiffersEnabledIsTheObservablePart() {
        let running = Subject<Int, Never>()
        let command = Command<Void, Int, Never> { running.signal }
        let enabled = command.enabled.record()
        command.execute(())
        command.allowsConcurrentExecution = true
        XCTAssertTrue(command.allowsConcurrentExecution)
        runOnThread { command.allowsConcurrentExecution = false }
        XCTAssertFalse(command.allowsConcurrentExecution)
        running.sendCompleted()
        XCTAssertEqual(enabled.values, [true, false, true, false, true])
    }

    func testRACCommandSpecShouldNotDeliverErrorsFromExecutionSignals() {
        let subject = Subject<Int, TestError>()
        let command = Command<Void, Int, TestError> { subject.signal }
        let received = command.executionSignals.flatten().materialize().record()

        command.execute(())
        XCTAssertEqual(current(command.executing), true)
        subject.send(1)
        XCTAssertEqual(received.values.map(\.value), [1])
        XCTAssertEqual(current(command.executing), true)
        subject.send(2)
        XCTAssertEqual(received.values.map(\.value), [1, 2])
        subject.sendError(TestError())

        XCTAssertEqual(current(command.executing), false)
        XCTAssertEqual(received.values.count, 2, "the inner signal completed quietly: no error event")
        XCTAssertFalse(received.isTerminated)
    }

    func testRACCommandSpecShouldDeliverErrorsFromExecute() {
        let subject = Subject<Int, TestError>()
        let command = Command<Void, Int, TestError> { subject.signal }
        let received = command.execute(()).record()
        XCTAssertEqual(current(command.executing), true)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(current(command.executing), true)
        subject.sendError(TestError())
        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(received.failure, .failed(TestError()))
        XCTAssertEqual(current(command.executing), false)
    }

    func testRACCommandSpecShouldDeliverErrorsOntoErrors() {
        let command = Command<Subject<Int, TestError>, Int, TestError> { subject in subject.signal }
        command.allowsConcurrentExecution = true
        let first = Subject<Int, TestError>()
        command.execute(first)
        let second = Subject<Int, TestError>()
        command.execute(second)

        // Errors of executions that started before subscribing are sent too.
        let errors = command.errors.record()
        XCTAssertEqual(current(command.executing), true)
        first.sendError(TestError(code: 1))
        XCTAssertEqual(current(command.executing), true)
        XCTAssertEqual(errors.values, [TestError(code: 1)])
        second.sendError(TestError(code: 2))
        XCTAssertEqual(current(command.executing), false)
        XCTAssertEqual(errors.values, [TestError(code: 1), TestError(code: 2)])
    }

    func testRACCommandSpecShouldNotDeliverNonErrorEventsOntoErrors() {
        let subject = Subject<Int, TestError>()
        let command = Command<Void, Int, TestError> { subject.signal }
        let errors = command.errors.record()
        command.execute(())
        XCTAssertEqual(current(command.executing), true)
        subject.send(1)
        subject.sendCompleted()
        XCTAssertEqual(current(command.executing), false)
        XCTAssertEqual(errors.events.count, 0)
    }

    func testRACCommandSpecShouldSendErrorsOnTheMainThreadDiffersSentOnTheThreadWhereTheWorkFailed() {
        let command = Command<Void, Int, TestError> { Signal(error: TestError()) }
        let receivedOn = Locked<UInt?>(nil)
        command.errors.subscribe(next: { _ in receivedOn.mutate { $0 = threadID() } })
        let executor = runOnThread { command.execute(()) }
        XCTAssertEqual(receivedOn.value, executor)
    }

    // MARK: enabled signal

    private func enabledCommand() -> (Subject<Bool, Never>, Command<Void, Void, Never>) {
        let enabledSubject = Subject<Bool, Never>()
        let command = Command<Void, Void, Never>(enabled: enabledSubject) { Signal(value: ()) }
        return (enabledSubject, command)
    }

    func testRACCommandSpecEnabledSignalShouldSendYesByDefault() {
        let (_, command) = enabledCommand()
        XCTAssertEqual(current(command.enabled), true)
    }

    func testRACCommandSpecEnabledSignalShouldSendWhateverTheEnabledSignalHasSentMostRecently() {
        let (enabledSubject, command) = enabledCommand()
        enabledSubject.send(false)
        XCTAssertEqual(current(command.enabled), false)
        enabledSubject.send(true)
        XCTAssertEqual(current(command.enabled), true)
        enabledSubject.send(false)
        XCTAssertEqual(current(command.enabled), false)
    }

    func testRACCommandSpecEnabledSignalShouldSampleEnabledSignalSynchronouslyAtInitializationTime() {
        let command = Command<Void, Void, Never>(enabled: Signal(value: false)) { Signal.empty }
        XCTAssertEqual(current(command.enabled), false)
    }

    func testRACCommandSpecEnabledSignalShouldSendNoWhileExecutingIsYesAndAllowsConcurrentExecutionIsNo() {
        let (_, command) = enabledCommand()
        var seen: [[Bool?]] = []
        let subscription = command.executionSignals.flatten().subscribe(next: { _ in
            seen.append([self.current(command.executing), self.current(command.enabled)])
        })
        defer { subscription.dispose() }  // the closure captures the command
        XCTAssertEqual(current(command.enabled), true)
        XCTAssertTrue(command.execute(()).record().isCompleted)
        XCTAssertEqual(seen, [[true, false]])
        XCTAssertEqual(current(command.enabled), true)
    }

    func testRACCommandSpecEnabledSignalShouldSendYesWhileExecutingIsYesAndAllowsConcurrentExecutionIsYes() {
        let (_, command) = enabledCommand()
        command.allowsConcurrentExecution = true
        var outerExecuted = false
        var innerExecuted = false
        // Only the first execution executes again (no infinite recursion).
        command.executionSignals.take(1).flatten().subscribe(next: { _ in
            outerExecuted = true
            XCTAssertEqual(self.current(command.executing), true)
            XCTAssertEqual(self.current(command.enabled), true)
            command.execute(()).subscribe(completed: { innerExecuted = true })
        })
        XCTAssertEqual(current(command.enabled), true)
        command.execute(())
        XCTAssertTrue(outerExecuted)
        XCTAssertTrue(innerExecuted)
        XCTAssertEqual(current(command.enabled), true)
    }

    func testRACCommandSpecEnabledSignalShouldSendAnErrorFromExecuteWhenNo() {
        var called = 0
        let enabledSubject = Subject<Bool, Never>()
        let command = Command<Void, Void, Never>(enabled: enabledSubject) {
            called += 1
            return Signal(value: ())
        }
        enabledSubject.send(false)
        let executing = command.executing.record()
        let executions = command.executionSignals.record()
        let errors = command.errors.record()

        let result = command.execute(()).record()

        XCTAssertEqual(result.events.map(\.event.error), [.disabled])
        XCTAssertEqual(called, 0, "the signal block is not called")
        XCTAssertEqual(executing.values, [false])
        XCTAssertEqual(executions.events.count, 0)
        XCTAssertEqual(errors.events.count, 0)
    }

    func testRACCommandSpecEnabledSignalShouldAlwaysUpdateOnTheMainThreadDiffersUpdatedOnTheSendingThread() {
        let (enabledSubject, command) = enabledCommand()
        let updatedOn = Locked<[UInt]>([])
        let subscription = command.enabled.subscribe(next: { _ in
            updatedOn.mutate { $0.append(threadID()) }
        })
        let sender = runOnThread { enabledSubject.send(false) }
        subscription.dispose()
        XCTAssertEqual(updatedOn.value.dropFirst(), [sender])
        XCTAssertEqual(current(command.enabled), false)
    }

    func testRACCommandSpecEnabledSignalShouldCompleteWhenTheCommandIsDeallocatedEvenIfTheInputSignalHasnt() {
        let enabledSubject = Subject<Bool, Never>()
        var command: Command<Void, Void, Never>? = Command(enabled: enabledSubject) { Signal.empty }
        weak let released = command
        let enabled = command!.enabled.record()
        command = nil
        XCTAssertNil(released)
        XCTAssertTrue(enabled.isCompleted)
    }

    // MARK: RACCommand.m: the order of an execution

    /// `-execute:` calls the signal block, then adds the execution (so `executing` and `enabled`
    /// update, and `executionSignals` sends it), then connects: "`executing` and `enabled` will send
    /// updated values before the signal actually starts performing work".
    func testRACCommandSpecShouldSendExecutingYesBeforeTheSignalIsSubscribedTo() {
        let log = Locked<[String]>([])
        let command = Command<Void, Int, Never> {
            log.append("signal block")
            return Signal { observer in
                log.append("work subscribed")
                observer.send(1)
                observer.sendCompleted()
                return nil
            }
        }
        command.executing.subscribe(next: { log.append("executing \($0)") })
        command.enabled.subscribe(next: { log.append("enabled \($0)") })
        command.executionSignals.subscribe(next: { execution in
            log.append("execution signal")
            execution.subscribe(next: { log.append("value \($0)") })
        })
        log.value = []

        command.execute(())

        XCTAssertEqual(
            log.values,
            [
                "signal block", "executing true", "enabled false", "execution signal", "work subscribed", "value 1",
                "executing false", "enabled true",
            ])
    }

    func testRACCommandSpecShouldCallTheSignalBlockBeforeExecutingBecomesYes() {
        weak var weakCommand: Command<Void, Int, Never>?
        var seenInBlock: [Bool?] = []
        let command = Command<Void, Int, Never> {
            if let command = weakCommand {
                seenInBlock = [self.current(command.executing), self.current(command.enabled), command.isExecuting]
            }
            return Signal(value: 1)
        }
        weakCommand = command
        command.execute(())
        XCTAssertEqual(seenInBlock, [false, true, false])
    }

    /// Executing from inside a callback of the command's own outputs (here: retrying from `errors`):
    /// the new execution's `executing`/`enabled` updates are queued behind the callback in progress,
    /// and its work starts after them — after `execute` has returned, on the same thread.
    func testRACCommandSpecShouldSendExecutingYesBeforeTheSignalIsSubscribedToWhenExecutedFromItsOwnOutputs() {
        let log = Locked<[String]>([])
        var attempts = 0
        let command = Command<Void, Int, TestError> {
            attempts += 1
            let attempt = attempts
            return Signal { observer in
                log.append("work \(attempt) subscribed")
                if attempt == 1 {
                    observer.sendError(TestError())
                } else {
                    observer.send(attempt)
                    observer.sendCompleted()
                }
                return nil
            }
        }
        command.executing.subscribe(next: { log.append("executing \($0)") })
        let retrying = command.errors.subscribe(next: { _ in
            log.append("error")
            command.execute(())  // retry
            log.append("retry returned")
        })
        defer { retrying.dispose() }  // the closure captures the command
        log.value = []

        command.execute(())

        XCTAssertEqual(
            log.values,
            [
                "executing true", "work 1 subscribed", "error", "retry returned", "executing false",
                "executing true", "work 2 subscribed", "executing false",
            ])
        XCTAssertEqual(attempts, 2)
    }

    /// RAC's completion handlers may execute again: the command is idle when an execution's
    /// subscribers hear its end, and `executing` sends false, then true, for the new execution.
    func testRACCommandExecutingAgainFromACompletionHandlerSendsExecutingNoThenYes() {
        let command = simpleCommand()
        let executing = command.executing.record()
        var second: TestRecorder<Int, CommandError<Never>>?
        command.executionSignals.take(1).subscribe(next: { execution in
            execution.subscribe(completed: { second = command.execute(2).record() })
        })
        command.execute(1)
        XCTAssertEqual(second?.values, [2])
        XCTAssertEqual(executing.values, [false, true, false, true, false])
    }

    // MARK: executing from inside an execution

    func testRACCommandExecutingFromInsideItsOwnExecutionFailsWithDisabledWithoutConcurrentExecution() {
        var blockCalls = 0
        let command = Command<Void, Int, Never> {
            blockCalls += 1
            return Signal(value: blockCalls)
        }
        var nested: TestRecorder<Int, CommandError<Never>>?
        command.executionSignals.take(1).flatten().subscribe(next: { _ in nested = command.execute(()).record() })
        let outer = command.execute(()).record()
        XCTAssertEqual(nested?.failure, .disabled)
        XCTAssertEqual(blockCalls, 1, "no side effect")
        XCTAssertEqual(outer.values, [1])
        XCTAssertTrue(outer.isCompleted)
    }

    /// Tether admits an execution and reserves its slot atomically, so without concurrent execution an
    /// `execute` from inside the signal block is refused (in RAC, which counted the execution only
    /// after the block returned, it would have started a second, overlapping execution). With
    /// concurrent execution it starts, and is counted first: its block returned first.
    func testRACCommandExecutingFromInsideTheSignalBlock() {
        for concurrent in [false, true] {
            weak var weakCommand: Command<Int, Int, Never>?
            var nested: TestRecorder<Int, CommandError<Never>>?
            let command = Command<Int, Int, Never>(allowsConcurrentExecution: concurrent) { value in
                if value == 1, let command = weakCommand { nested = command.execute(2).record() }
                return Signal(value: value)
            }
            weakCommand = command
            let executions = command.executionSignals.flatten().record()
            let outer = command.execute(1).record()
            XCTAssertEqual(outer.values, [1])
            if concurrent {
                XCTAssertEqual(nested?.values, [2])
                XCTAssertEqual(executions.values, [2, 1])
            } else {
                XCTAssertEqual(nested?.failure, .disabled)
                XCTAssertEqual(executions.values, [1])
            }
            XCTAssertFalse(command.isExecuting)
        }
    }

    /// Cancelling while the signal block runs: the execution never starts (its work is not
    /// subscribed, nothing is sent on the outputs) and `execute` returns a signal that just completes.
    func testCancelWhileTheSignalBlockRunsStartsNothing() {
        weak var weakCommand: Command<Void, Int, Never>?
        let subscribed = Flag()
        let command = Command<Void, Int, Never> {
            weakCommand?.cancel()
            return Signal { observer in
                subscribed.raise()
                observer.send(1)
                return nil
            }
        }
        weakCommand = command
        let executing = command.executing.record()
        let executions = command.executionSignals.record()
        let result = command.execute(()).record()
        XCTAssertEqual(result.events.count, 1)
        XCTAssertTrue(result.isCompleted)
        XCTAssertFalse(subscribed.isRaised)
        XCTAssertEqual(executing.values, [false])
        XCTAssertEqual(executions.events.count, 0)
        XCTAssertTrue(command.isEnabled)
    }

    // MARK: allowsConcurrentExecution, settable (RAC sets it after creating the command)

    func testRACCommandSpecAllowsConcurrentExecutionSetWhileIdleAppliesToTheNextExecutions() {
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        var works = [first, second]
        let command = Command<Void, Int, Never> { works.removeFirst().signal }
        let enabled = command.enabled.record()

        command.allowsConcurrentExecution = true
        XCTAssertEqual(enabled.values, [true], "nothing running: enabled does not change")
        command.execute(())
        let overlapping = command.execute(()).record()
        XCTAssertNil(overlapping.failure, "the second execution runs alongside the first")
        XCTAssertEqual(enabled.values, [true])

        first.sendCompleted()
        second.sendCompleted()
        command.allowsConcurrentExecution = false
        works = [Subject<Int, Never>()]
        let running = works[0]
        command.execute(())
        XCTAssertEqual(command.execute(()).record().failure, .disabled)
        XCTAssertEqual(enabled.values, [true, false])
        running.sendCompleted()
        XCTAssertEqual(enabled.values, [true, false, true])
    }

    /// As in RAC (`enabled` combines the `enabled:` input with "concurrency allowed OR not executing"),
    /// a change while executing re-evaluates `enabled` at once; executions in flight keep running.
    func testRACCommandSpecAllowsConcurrentExecutionSetWhileExecutingReevaluatesEnabled() {
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        var works = [first, second]
        let command = Command<Void, Int, Never> { works.removeFirst().signal }
        let enabled = command.enabled.record()
        let executing = command.executing.record()

        let firstResult = command.execute(())
        XCTAssertEqual(enabled.values, [true, false])
        command.allowsConcurrentExecution = true
        XCTAssertEqual(enabled.values, [true, false, true], "enabled again while the first runs")
        XCTAssertTrue(command.isEnabled)
        let secondResult = command.execute(())

        command.allowsConcurrentExecution = false
        XCTAssertEqual(enabled.values, [true, false, true, false], "disabled while executions run")
        XCTAssertEqual(command.execute(()).record().failure, .disabled)
        first.send(1)
        first.sendCompleted()
        XCTAssertEqual(enabled.values, [true, false, true, false], "still one running")
        second.send(2)
        second.sendCompleted()
        XCTAssertEqual(enabled.values, [true, false, true, false, true])
        XCTAssertEqual(executing.values, [false, true, false])
        XCTAssertEqual(firstResult.record().values, [1])
        XCTAssertEqual(secondResult.record().values, [2])
    }

    // MARK: threads

    /// While another thread is inside a callback of the outputs of a command made in nonisolated code,
    /// `execute` does not wait for it: it hands that thread the closure and the start of the work, which
    /// it runs when its callback returns, and returns at once. The closure is not `Sendable`, so its calls
    /// never overlap, even with concurrent execution (issue 42, bug 5a).
    func testExecuteWhileAnotherThreadDeliversTheOutputsHandsThatThreadTheWorkAndReturnsAtOnce() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let workThreads = Locked<[UInt]>([])
        let blockThreads = Locked<[UInt]>([])
        let command = Command<Int, Int, Never>(allowsConcurrentExecution: true) { value in
            blockThreads.mutate { $0.append(threadID()) }
            return Signal { observer in
                workThreads.mutate { $0.append(threadID()) }
                observer.send(value)
                observer.sendCompleted()
                return nil
            }
        }
        let blocked = Locked(false)
        command.executionSignals.subscribe(next: { _ in
            let first = blocked.value == false
            blocked.mutate { $0 = true }
            if first {
                entered.signal()
                // Watchdog only: the test thread signals `release` once its own execution returned.
                if release.wait(timeout: .now() + 60) == .timedOut { XCTFail("release never came") }
            }
        })
        let executions = command.executionSignals.record()
        let other = Thread {
            command.execute(1)
        }
        other.start()
        guard entered.wait(timeout: .now() + 60) == .success else {
            return XCTFail("the other thread's execution never reached its executionSignals subscriber")
        }

        let result = command.execute(2).record()  // must not wait for the other thread

        XCTAssertEqual(result.values, [], "queued behind the other thread's callback")
        XCTAssertEqual(blockThreads.value.count, 1, "the closure did not run here")
        XCTAssertEqual(workThreads.value, [], "the first execution's work starts after that callback too")
        release.signal()
        waitUntil { executions.values.count == 2 && !command.isExecuting && result.values == [2] }
        let deliverer = blockThreads.value[0]
        XCTAssertNotEqual(deliverer, threadID())
        XCTAssertEqual(blockThreads.value, [deliverer, deliverer], "both closures ran on the delivering thread")
        XCTAssertEqual(workThreads.value, [deliverer, deliverer])
        XCTAssertEqual(result.values, [2])
    }

    func testAllowsConcurrentExecutionCanBeSetFromAnyThreadWhileExecutionsRun() {
        let command = Command<Int, Int, Never> { value in Signal(value: value) }
        let ran = Locked(0)
        let refused = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<200 {
                if worker == 0 {
                    command.allowsConcurrentExecution = index.isMultiple(of: 2)
                } else {
                    command.execute(index).subscribe(
                        next: { _ in ran.mutate { $0 += 1 } },
                        error: { error in
                            if case .disabled = error { refused.mutate { $0 += 1 } }
                        })
                }
            }
        }
        command.allowsConcurrentExecution = false
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(current(command.enabled), true)
        XCTAssertEqual(current(command.executing), false)
        XCTAssertGreaterThan(ran.value, 0)
        XCTAssertEqual(ran.value + refused.value, 3 * 200, "each execute either ran once or was refused as disabled")
    }

    /// Runs `body` on a new thread and waits for it to finish; returns that thread's ``threadID()``.
    @discardableResult
    private func runOnThread(_ body: @escaping @Sendable () -> Void) -> UInt {
        let done = DispatchSemaphore(value: 0)
        let id = Locked<UInt>(0)
        let thread = Thread {
            id.mutate { $0 = threadID() }
            body()
            done.signal()
        }
        thread.start()
        done.wait()
        return id.value
    }
}

/// Identifies the calling thread.
private func threadID() -> UInt {
    UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
}
