import Synchronization

/// Where a ``Hop`` runs its work: an executor (in Tether, the actor a subscriber was written on), as the
/// engine sees it. The engine knows no actors: `Observable` conforms its `CallerIsolation`.
package protocol HopTarget: Sendable {
    /// Whether the calling thread runs the executor's work now.
    var isCurrent: Bool { get }
    /// Runs `job` on the executor, after the work queued there before it.
    func enqueue(_ job: @escaping @Sendable () -> Void)
    /// The thread that will run the executor's next job, when it is known before the job starts (0 when
    /// not): whom a sender waits for while the backlog is full and no job runs.
    var expectedThread: UInt { get }
    /// Called on the executor when one of the hop's jobs starts there.
    func jobStarts(on thread: UInt)
}

/// Runs work on an executor in the order it was submitted, from any thread, with the delivery rules of a
/// source's gate: the bound of its backlog, a fair share of the executor, nothing run once cancelled. The
/// rules are ``HopState``'s; this is their runtime: the state under ``Lock``, the effects (running work,
/// queueing a job, parking, waking) outside it.
///
/// A sender parks through ``RoomWait``, like a gate's, only when it knows the thread it waits for: the
/// one running this hop's job, or the executor's ``HopTarget/expectedThread``.
///
/// The work is Tether's own (delivering a subscriber's events, calling a channel's setter, an action, a
/// command's start): it captures what belongs to the executor, which is why it runs only there.
package final class Hop<Target: HopTarget>: @unchecked Sendable {
    // Safety: `state` is guarded by `lock`, which is never held while work runs; `flags` mirrors what parked
    // senders and a running job read without it. The work closures run only on the target's executor:
    // directly when submitted there with nothing ahead, else by the hop's job.
    package let target: Target
    private let lock = Lock()
    private var state: HopState<() -> Void>
    /// `fullFlag` while the backlog is full (and not cancelled), `cancelledFlag` once cancelled.
    private let flags = Atomic<UInt8>(0)
    private static var fullFlag: UInt8 { 1 }
    private static var cancelledFlag: UInt8 { 2 }

    /// A hop to `target` whose backlog holds a source's bound (``SerialGate/backlogLimit``) before a sender
    /// off the executor waits.
    package convenience init(_ target: Target) {
        self.init(target, limit: SerialGate<Void>.backlogLimit)
    }

    /// A hop whose backlog holds `limit` pieces (tests use small ones).
    package init(_ target: Target, limit: Int) {
        self.target = target
        self.state = HopState(limit: limit)
    }

    /// How many pieces of work wait for the executor now (for tests of the bound).
    package var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return state.pending.count
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { flags.load(ordering: .acquiring) & Self.cancelledFlag != 0 }

    private var sendersAddress: UInt { parkingAddress(of: self) }

    /// Called with `lock` held after a transition: publishes what the parked senders and the job read.
    private func publishFlags() {
        let flags: UInt8 = state.isCancelled ? Self.cancelledFlag : (state.isFull ? Self.fullFlag : 0)
        self.flags.store(flags, ordering: .releasing)
    }

    /// Runs `work` on the executor after what was submitted before; nothing once ``cancel()`` was called.
    package func run(_ work: @escaping () -> Void) {
        let onExecutor = target.isCurrent
        var mayWait = true
        lock.lock()
        while true {
            switch state.submit(work, onExecutor: onExecutor, mayWait: mayWait, waitFor: target.expectedThread) {
            case .runNow(let work):
                lock.unlock()
                work()
            case .queued:
                publishFlags()
                lock.unlock()
            case .queuedStartingJob:
                publishFlags()
                lock.unlock()
                target.enqueue { self.drain() }
            case .dropped(let work):
                lock.unlock()
                _ = work  // released after the lock: it holds user values
            case .waitForRoom(let thread):
                lock.unlock()
                let outcome = RoomWait.park(waitingFor: thread, on: sendersAddress) {
                    flags.load(ordering: .relaxed) == Self.fullFlag
                }
                lock.lock()
                state.endWait()
                if outcome != .woken { mayWait = false }
                continue
            }
            return
        }
    }

    /// On the executor: runs the batch queued so far, then leaves what arrived meanwhile to a new job, behind
    /// the executor's other work.
    private func drain() {
        let me = currentThreadID
        target.jobStarts(on: me)
        lock.lock()
        let (batch, wakeSenders) = state.beginJob(on: me)
        publishFlags()
        lock.unlock()
        if wakeSenders { ParkingLot.unparkAll(sendersAddress) }
        for work in batch {
            if isCancelled { break }
            work()
        }
        lock.lock()
        let more = state.endJob()
        lock.unlock()
        if more { target.enqueue { self.drain() } }
    }

    /// Drops what is queued and everything submitted from now on, and wakes the senders waiting for room.
    /// Called on the executor, no queued work runs after it returns; from elsewhere, at most the piece the
    /// executor is running finishes.
    package func cancel() {
        lock.lock()
        let (dropped, wakeSenders) = state.cancel()
        publishFlags()
        lock.unlock()
        if wakeSenders { ParkingLot.unparkAll(sendersAddress) }
        _ = dropped  // released after the lock: the closures hold user values
    }
}
