import Synchronization
import TetherEngine

/// Runs work on an actor in the order it was submitted, from any thread, with the delivery rules of the
/// core: a bounded backlog, a fair share of the actor, and nothing run once cancelled.
///
/// - **Order.** Work submitted on the actor while nothing is queued runs at once; anything else is queued
///   and run on the actor by one job at a time, in submission order whichever thread submitted it (a plain
///   `Task` per piece would not keep it).
/// - **Bound (guarantee 3).** At most ``backlogLimit`` pieces wait — the bound of a source's gate, so a
///   flood into a subscriber on an actor stays as bounded as one into a subscriber on the sending thread.
///   A sender off the actor that finds the backlog full parks until the actor's job takes the batch (or the
///   hop is cancelled). It parks only when it knows which thread it waits for — the thread running this
///   hop's job, or for the main actor the thread that last ran the main actor's work — and only when
///   ``WaitGraph`` finds that the wait closes no cycle (that thread waiting, directly or not, for the
///   sender): otherwise it queues past the bound, as a source's gate does. Work submitted on the actor
///   itself never waits.
/// - **Fairness.** A job runs the batch it took when it started, then, if more arrived meanwhile, queues a
///   new job behind whatever else the actor has to do (the main queue's other blocks, the actor's other
///   tasks): a flood never keeps the actor to itself.
/// - **Cancel.** ``cancel()`` drops what is queued, wakes the parked senders (they drop their work), and
///   stops a job between two pieces: nothing submitted before it runs after it, once it returns on the
///   actor — the rule of a disposed subscription. The dropped closures (and what they captured: values,
///   senders) are released at once.
///
/// The work is Tether's own (delivering a subscriber's events, calling a channel's setter, an action, a
/// command's execution): it captures what belongs to the actor, which is why it runs only there.
@usableFromInline
package final class ActorHop: @unchecked Sendable {
    // Safety: `pending`, `jobQueued` and `parkedSenders` are guarded by `lock`, never held while work runs;
    // `queued`, `cancelled` and `drainer` mirror what parked senders read under the parking lot's mutex.
    // The work closures run only on `isolation`'s actor (directly when submitted there, else by the job).
    package let isolation: CallerIsolation
    private let lock = Lock()
    private var pending: ContiguousArray<() -> Void> = []
    private var jobQueued = false
    private var parkedSenders = 0
    /// `pending.count`.
    private let queued = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    /// The thread running this hop's job, 0 while none runs.
    private let drainer = Atomic<UInt>(0)

    /// How many pieces of work may wait before a sender off the actor waits: a source's bound
    /// (``SerialGate/backlogLimit``).
    package static var backlogLimit: Int { SerialGate<Void>.backlogLimit }

    package init(_ isolation: CallerIsolation) {
        self.isolation = isolation
    }

    /// How many pieces of work wait for the actor now (for tests of the bound).
    package var queuedCount: Int { queued.load(ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    private var sendersAddress: UInt { parkingAddress(of: self) }

    /// Runs `work` on the actor after what was submitted before; nothing once ``cancel()`` was called.
    package func run(_ work: @escaping () -> Void) {
        let onActor = isolation.isCurrent
        lock.lock()
        if cancelled.load(ordering: .relaxed) {
            lock.unlock()
            return
        }
        if onActor && !jobQueued {
            lock.unlock()
            work()
            return
        }
        if !onActor && pending.count >= Self.backlogLimit {
            waitForRoom()
            if cancelled.load(ordering: .relaxed) {
                lock.unlock()
                return
            }
        }
        pending.append(work)
        queued.store(pending.count, ordering: .relaxed)
        if jobQueued {
            lock.unlock()
            return
        }
        jobQueued = true
        lock.unlock()
        isolation.enqueue { self.drain() }
    }

    /// Called with `lock` held (returns with it held): parks while the backlog is full and the hop is not
    /// cancelled, when the thread waited for is known and the wait closes no cycle (see the type's notes).
    private func waitForRoom() {
        while pending.count >= Self.backlogLimit && !cancelled.load(ordering: .relaxed) {
            var target = drainer.load(ordering: .relaxed)
            if target == 0, case .main = isolation { target = MainActorThread.last }
            if target == 0 { return }
            parkedSenders += 1
            lock.unlock()
            let outcome = RoomWait.park(waitingFor: target, on: sendersAddress) {
                queued.load(ordering: .relaxed) >= Self.backlogLimit && !cancelled.load(ordering: .relaxed)
            }
            lock.lock()
            parkedSenders -= 1
            if outcome != .woken { return }
        }
    }

    /// On the actor: runs the batch queued so far, then leaves what arrived meanwhile to a new job, behind
    /// the actor's other work.
    private func drain() {
        let me = currentThreadID
        if case .main = isolation { MainActorThread.note(me) }
        lock.lock()
        let batch = pending
        pending = []
        queued.store(0, ordering: .relaxed)
        drainer.store(me, ordering: .relaxed)
        let wake = parkedSenders != 0
        lock.unlock()
        if wake { ParkingLot.unparkAll(sendersAddress) }
        for work in batch {
            if cancelled.load(ordering: .acquiring) { break }
            work()
        }
        lock.lock()
        drainer.store(0, ordering: .relaxed)
        let more = !pending.isEmpty && !cancelled.load(ordering: .relaxed)
        if !more { jobQueued = false }
        lock.unlock()
        if more { isolation.enqueue { self.drain() } }
    }

    /// Drops what is queued and everything submitted from now on, and wakes the senders waiting for room.
    /// Called on the actor, no queued work runs after it returns; from elsewhere, at most the piece the
    /// actor is running finishes.
    package func cancel() {
        lock.lock()
        cancelled.store(true, ordering: .releasing)
        let dropped = pending
        pending = []
        queued.store(0, ordering: .relaxed)
        let wake = parkedSenders != 0
        lock.unlock()
        if wake { ParkingLot.unparkAll(sendersAddress) }
        _ = dropped  // released after the lock: the closures hold user values
    }
}

/// The thread that last ran the main actor's work for Tether (a hop's job, a subscription started there):
/// whom a sender waiting for room in a main-actor hop waits for, when no job of that hop runs yet.
@usableFromInline
package enum MainActorThread {
    private static let thread = Atomic<UInt>(0)

    /// The thread, or 0 before the main actor ran anything of Tether's.
    package static var last: UInt { thread.load(ordering: .relaxed) }

    /// Notes that `thread` runs the main actor's work now.
    @usableFromInline
    package static func note(_ thread: UInt) {
        if Self.thread.load(ordering: .relaxed) != thread { Self.thread.store(thread, ordering: .relaxed) }
    }
}
