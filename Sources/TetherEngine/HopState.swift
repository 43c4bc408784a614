/// The state of a hop to an executor (a subscriber's actor), as a value: which work waits, whether a job
/// is on its way, who runs it, who waits for room. Its transitions are pure — they return what the caller
/// must do (run the work now, queue a job, park, wake the parked senders) — so the rules are read and
/// tested here without threads (`HopStateExplorationTests` walks every interleaving of small cases); the
/// runtime, ``Hop``, applies them under its lock and does the effects with no lock held.
///
/// The rules (those of a source's ``SerialGate``, for work that must run on one executor):
///
/// - **Order.** Work runs in the order it was submitted. Work submitted on the executor while nothing is
///   queued or running there runs at once (``Submission/runNow(_:)``); anything else is queued, and the
///   first piece queued starts a job (``Submission/queuedStartingJob``).
/// - **Bound.** While ``limit`` pieces wait, a sender off the executor that knows which thread will take
///   them waits for room (``Submission/waitForRoom(thread:)``); one that doesn't, or whose wait was not
///   possible, queues past the bound (`mayWait: false`). Work on the executor never waits.
/// - **Fairness.** A job takes the batch queued when it starts (``beginJob(on:)``) and, when it ends
///   (``endJob()``), leaves what arrived meanwhile to a new job behind the executor's other work.
/// - **Cancel.** ``cancel()`` drops what waits and everything submitted later, and wakes the parked
///   senders; a job stops between two pieces once it sees ``isCancelled``.
///
/// Invariants (checked by the exploration): nothing waits without a job on its way
/// (`pending` is empty unless `jobQueued`); the thread running the job is known only while one runs; after
/// cancel nothing waits.
package struct HopState<Work> {
    /// How many pieces may wait before a sender off the executor waits.
    package let limit: Int
    /// The work submitted and not yet taken by a job, in order.
    package private(set) var pending: ContiguousArray<Work> = []
    /// A job is queued on the executor or running.
    package private(set) var jobQueued = false
    /// The thread running the job (a ``currentThreadID``), 0 while none runs.
    package private(set) var drainer: UInt = 0
    /// Senders parked for room.
    package private(set) var parkedSenders = 0
    /// ``cancel()`` was called.
    package private(set) var isCancelled = false

    package init(limit: Int) {
        self.limit = limit
    }

    /// What a sender does with its work.
    package enum Submission {
        /// Run it now, on the calling thread (it is on the executor and nothing is ahead of it).
        case runNow(Work)
        /// Queued behind a job on its way: nothing to do.
        case queued
        /// Queued, and no job was on its way: queue one on the executor.
        case queuedStartingJob
        /// The hop was cancelled: drop the work (after unlocking: it may hold user values).
        case dropped(Work)
        /// The backlog is full: park as a wait for `thread` (counted in ``parkedSenders``), then call
        /// ``endWait()`` and submit again (with `mayWait: false` if the wait could not be made).
        case waitForRoom(thread: UInt)
    }

    /// Whether a sender off the executor should be parked now: the backlog is full and not cancelled.
    package var isFull: Bool { pending.count >= limit && !isCancelled }

    /// Submits `work`. `onExecutor`: the caller runs the executor's work now. `waitFor`: the thread a sender
    /// off the executor would wait for when the backlog is full and no job runs (0: unknown), ignored
    /// when `mayWait` is false.
    package mutating func submit(
        _ work: Work, onExecutor: Bool, mayWait: Bool = true, waitFor expected: UInt = 0
    ) -> Submission {
        if isCancelled { return .dropped(work) }
        if onExecutor && !jobQueued { return .runNow(work) }
        if !onExecutor && mayWait && pending.count >= limit {
            let thread = drainer != 0 ? drainer : expected
            if thread != 0 {
                parkedSenders += 1
                return .waitForRoom(thread: thread)
            }
        }
        pending.append(work)
        if jobQueued { return .queued }
        jobQueued = true
        return .queuedStartingJob
    }

    /// A sender that was told to wait for room is back (woken, or its wait was not made).
    package mutating func endWait() {
        parkedSenders -= 1
    }

    /// A job starts on `thread`: it takes what waits. `wakeSenders`: room was made for parked senders.
    package mutating func beginJob(on thread: UInt) -> (batch: ContiguousArray<Work>, wakeSenders: Bool) {
        precondition(jobQueued && drainer == 0, "HopState: a job began without being queued")
        drainer = thread
        var batch: ContiguousArray<Work> = []
        swap(&batch, &pending)
        return (batch, parkedSenders != 0)
    }

    /// The running job ends; returns whether more arrived meanwhile, so a new job must be queued.
    package mutating func endJob() -> Bool {
        precondition(drainer != 0, "HopState: a job ended without having begun")
        drainer = 0
        if !pending.isEmpty && !isCancelled { return true }
        jobQueued = false
        return false
    }

    /// Drops what waits and everything submitted from now on. Returns the dropped work (release it after
    /// unlocking) and whether parked senders must be woken.
    package mutating func cancel() -> (dropped: ContiguousArray<Work>, wakeSenders: Bool) {
        isCancelled = true
        var dropped: ContiguousArray<Work> = []
        swap(&dropped, &pending)
        return (dropped, parkedSenders != 0)
    }
}

extension HopState: Equatable where Work: Equatable {}
extension HopState: Hashable where Work: Hashable {}
