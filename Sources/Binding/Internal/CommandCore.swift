import Observable
import TetherEngine

/// Permission to start one execution, handed out by `CommandCore.admit()`.
struct CommandAdmission {
    /// `CommandCore.cancellations` when it was granted: a `cancel()` since then revokes it.
    let cancellations: UInt64
}

/// What `CommandCore` keeps for one execution in flight.
struct CommandExecution<Output, Failure: Error> {
    var subscription: (any Disposable)?
    let replay: ReplaySubject<Output, Failure>
}

/// One step of the command's serialized output: a value for one of the four output subjects, the
/// start of an execution's work, or the outputs' completion.
enum CommandStep<Output, Failure: Error> {
    case executing(Bool)
    case enabled(Bool)
    case execution(Signal<Output, Never>)
    case error(Failure)
    case start(() -> Void)
    case finish
}

/// The command's state, and the serialized delivery of its outputs.
///
/// Every decision (may this execution start? has it already ended?) is made under the gate's lock, in
/// the closure of an ordered submission (``SerialGate/submitEventInOrder(_:perform:)``): the outputs it implies
/// (a batch of steps) take their place in the gate's order right there, so they are delivered in exactly
/// the order of the state changes. The gate delivers them outside the lock: a thread that finds it idle
/// delivers its own batch (and what is queued meanwhile); a thread that finds it busy — another thread,
/// or a callback of this very delivery — leaves its batch to the gate's owner.
///
/// `execute` submits as an event: a thread executing while the backlog is full waits (parked) until the
/// owner takes the queue, and an owner hands a flood over to the waiting executors after a few batches
/// (see ``SerialGate``) — memory stays bounded and no `execute()` keeps delivering other threads'
/// steps. The other submissions (an execution ending, a cancel, `enabled:` changing) never wait
/// (``SerialGate/submitInOrderWithoutWaiting(_:perform:)``): each follows an execution, or is the user's
/// own control.
///
/// Side effects that must come before a batch's outputs (starting an execution's work; an ended
/// execution's terminal event on its replay; a cancel's disposals) run in the batch, as its first step,
/// when the submitting thread delivers the batch itself (the gate was idle); otherwise they run on the
/// submitting thread right after it submitted (another thread's delivery of the outputs may then come
/// first — waiting for it could deadlock, and handing it the side effect would make it run everyone's
/// work).
final class CommandCore<Output, Failure: Error>: @unchecked Sendable {
    // Safety: the state vars are only accessed under the gate's lock (`gate.withLock`); the subjects are
    // thread-safe and only sent to by the gate's owner, one step at a time.
    let executing = BehaviorSubject<Bool, Never>(value: false)
    let enabled = BehaviorSubject<Bool, Never>(value: true)
    let executionSignals = Subject<Signal<Output, Never>, Never>()
    let errors = Subject<Failure, Never>()

    private let gate = SerialGate<[CommandStep<Output, Failure>]>()
    private var enabledInput = true
    private var concurrent: Bool
    /// Executions admitted whose `execute` closure is still running: not counted as executing yet,
    /// but they keep a non-concurrent command from admitting another.
    private var admitted = 0
    private var active: [UInt64: CommandExecution<Output, Failure>] = [:]
    private var nextID: UInt64 = 0
    private var cancellations: UInt64 = 0
    private var finished = false
    /// The values of `executing` and `enabled` as last queued.
    private var queuedExecuting = false
    private var queuedEnabled = true

    init(allowsConcurrentExecution: Bool) {
        concurrent = allowsConcurrentExecution
    }

    var isExecuting: Bool { gate.withLock { !active.isEmpty } }
    var isEnabled: Bool { gate.withLock { admissibleLocked } }
    var allowsConcurrentExecution: Bool { gate.withLock { concurrent } }

    /// Whether another execution may be admitted now.
    private var admissibleLocked: Bool {
        enabledInput && (concurrent || (active.isEmpty && admitted == 0))
    }

    /// `before`, the `executing` / `enabled` values that changed since they were last queued, then
    /// `after`; called under the lock, as the batch to submit.
    private func stepsLocked(
        before: [CommandStep<Output, Failure>] = [], after: [CommandStep<Output, Failure>] = []
    ) -> [CommandStep<Output, Failure>] {
        var steps = before
        if !finished {
            let executingNow = !active.isEmpty
            if executingNow != queuedExecuting {
                queuedExecuting = executingNow
                steps.append(.executing(executingNow))
            }
            let enabledNow = enabledInput && (concurrent || active.isEmpty)
            if enabledNow != queuedEnabled {
                queuedEnabled = enabledNow
                steps.append(.enabled(enabledNow))
            }
        }
        steps += after
        return steps
    }

    /// A decision made under the lock: the steps to submit (none: nothing), and a side effect to run
    /// before them (see ``submitExecution(_:)``); `nil`: nothing at all.
    private typealias Decision = (steps: [CommandStep<Output, Failure>], sideEffect: (() -> Void)?)?

    /// Submits an execution's start (see ``begin(_:running:)``): the batch of steps that `decide` returns
    /// (under the lock), as an event that may wait for room in the backlog. `decide` is told whether this
    /// thread delivers the batch (the gate is idle, or this thread owns it: a callback of the delivery). A
    /// `sideEffect` it returns runs before the batch's outputs when this thread delivers them now (the gate
    /// was idle), else on this thread right after submitting.
    private func submitExecution(_ decide: (_ deliveredHere: Bool) -> Decision) {
        var runAfter: (() -> Void)?
        gate.submitEventInOrder {
            batchLocked(decide, runAfter: &runAfter)
        } perform: { [self] batch in
            for step in batch { perform(step) }
        }
        runAfter?()
    }

    /// Submits a control step (an execution ending, a cancel, a setting), as ``submitExecution(_:)`` but
    /// never waiting for room in the backlog.
    private func submitControl(_ decide: (_ deliveredHere: Bool) -> Decision) {
        var runAfter: (() -> Void)?
        gate.submitInOrderWithoutWaiting {
            batchLocked(decide, runAfter: &runAfter)
        } perform: { [self] batch in
            for step in batch { perform(step) }
        }
        runAfter?()
    }

    /// Called under the lock by the submitting thread: the batch to submit for what `decide` returns — with its side
    /// effect as the first step when the gate is idle (this thread delivers the batch now), else left in
    /// `runAfter`.
    private func batchLocked(
        _ decide: (_ deliveredHere: Bool) -> Decision, runAfter: inout (() -> Void)?
    ) -> [CommandStep<Output, Failure>]? {
        let delivery = gate.orderedSubmissionDeliveryLocked()
        guard let decision = decide(delivery != .byAnotherThread) else { return nil }
        if delivery == .now, let effect = decision.sideEffect { return [.start(effect)] + decision.steps }
        runAfter = decision.sideEffect
        return decision.steps.isEmpty ? nil : decision.steps
    }

    /// Admits an execution if the command is enabled; the caller then calls its closure and `begin`.
    func admit() -> CommandAdmission? {
        gate.withLock {
            guard admissibleLocked else { return nil }
            admitted += 1
            return CommandAdmission(cancellations: cancellations)
        }
    }

    /// Runs `body` one at a time with everything else the command runs in its serialized delivery: at
    /// once on this thread when nothing is being delivered, or when this thread is the one delivering (a
    /// callback executed the command: reentrant, not concurrent); else by the thread that delivers, after
    /// what is queued — `startInOrder` then returns first. A sender that finds the backlog full waits for
    /// room, as for any other event.
    ///
    /// A nonisolated command's `execute` closure and its work's start run here: the closure is not
    /// `Sendable`, so no two of its calls may overlap even when executions do.
    func startInOrder(_ body: @escaping () -> Void) {
        if gate.isOwnedByCurrentThread {
            // Called from a callback of this command on this thread (the closure of another execution, an
            // output's subscriber): run it now, as RAC runs a nested execution's block. Nothing else of
            // the command can run meanwhile — this thread is the one that runs it.
            body()
            return
        }
        submitExecution { _ in ([.start(body)], nil) }
    }

    /// Counts an admitted execution, queues its outputs and starts `work` after them; its events go to
    /// `replay`. When `cancel()` was called since the execution was admitted, nothing starts and
    /// `replay` completes.
    ///
    /// Where the work starts: when the gate is idle, this thread delivers the outputs, then starts it;
    /// when this thread is already delivering (a callback of the outputs executed the command, or this
    /// is a nonisolated command's ``startInOrder(_:)``), the start is queued behind the outputs and this
    /// thread runs it when the current callback has returned; when another thread is delivering (an
    /// isolated command: its work is handed to its actor anyway), the work starts at once, here.
    func begin(
        _ admission: CommandAdmission, running work: Signal<Output, Failure>,
        replay: ReplaySubject<Output, Failure>
    ) {
        let inner = replay.signal.catch { _ in Signal<Output, Never>.empty }
        var started = false
        submitExecution { deliveredHere in
            admitted -= 1
            guard admission.cancellations == cancellations else { return nil }
            nextID += 1
            let execution = nextID
            started = true
            active[execution] = CommandExecution(subscription: nil, replay: replay)
            let start = { [self] in run(execution, work: work, replay: replay) }
            // After the outputs when this thread delivers them; at once when another thread does.
            if deliveredHere { return (stepsLocked(after: [.execution(inner), .start(start)]), nil) }
            return (stepsLocked(after: [.execution(inner)]), start)
        }
        if !started {
            replay.sendCompleted()  // cancelled while the closure ran: nothing started
        }
    }

    /// Subscribes to an execution's work, unless it was cancelled meanwhile.
    private func run(_ id: UInt64, work: Signal<Output, Failure>, replay: ReplaySubject<Output, Failure>) {
        guard gate.withLock({ active[id] != nil }) else { return }  // cancelled before its work started
        let subscription = work.subscribeEvents { [self] event in
            guard event.isTerminal else {
                replay.send(event: event)
                return
            }
            // Stop counting the execution first, so its subscribers see the command idle (RAC); the
            // outputs this queues are delivered after them.
            end(id, failure: event.error) { replay.send(event: event) }
        }
        let attached = gate.withLock {
            guard active[id] != nil else { return false }
            active[id]?.subscription = subscription
            return true
        }
        if !attached {
            subscription.dispose()  // cancelled while the work was starting
        }
    }

    /// Stops counting an execution, runs `then` (its terminal event) and delivers its failure and the
    /// state change after it; does nothing if it had already ended (cancelled).
    private func end(_ id: UInt64, failure: Failure?, then: @escaping () -> Void) {
        var ended: CommandExecution<Output, Failure>?
        submitControl { _ in
            guard let execution = active.removeValue(forKey: id) else { return nil }
            ended = execution
            // The failure goes to `errors` before `executing` turns false.
            var failed: [CommandStep<Output, Failure>] = []
            if let failure, !finished { failed.append(.error(failure)) }
            return (stepsLocked(before: failed), then)
        }
        _ = ended  // released here, outside the lock: it may hold the last reference to the work
    }

    /// Records the latest value of the `enabled:` input.
    func setEnabledInput(_ value: Bool) {
        submitControl { _ in
            enabledInput = value
            return (stepsLocked(), nil)
        }
    }

    /// Changes whether executions may overlap; `enabled` is re-evaluated at once.
    func setAllowsConcurrentExecution(_ value: Bool) {
        submitControl { _ in
            concurrent = value
            return (stepsLocked(), nil)
        }
    }

    /// Ends every execution in flight, in start order, and revokes the admissions whose closure is
    /// still running.
    func cancelAll() {
        submitControl { _ in
            cancellations &+= 1
            let cancelled = active.sorted { $0.key < $1.key }.map(\.value)
            active.removeAll()
            if cancelled.isEmpty { return (stepsLocked(), nil) }
            return (
                stepsLocked(),
                {
                    for execution in cancelled {
                        execution.subscription?.dispose()
                        execution.replay.sendCompleted()
                    }
                }
            )
        }
    }

    /// Completes the outputs (after whatever is queued).
    func finish() {
        submitControl { _ in
            finished = true
            return ([.finish], nil)
        }
    }

    private func perform(_ step: CommandStep<Output, Failure>) {
        switch step {
        case .executing(let value): executing.send(value)
        case .enabled(let value): enabled.send(value)
        case .execution(let signal): executionSignals.send(signal)
        case .error(let failure): errors.send(failure)
        case .start(let start): start()
        case .finish:
            executing.sendCompleted()
            enabled.sendCompleted()
            executionSignals.sendCompleted()
            errors.sendCompleted()
        }
    }
}
