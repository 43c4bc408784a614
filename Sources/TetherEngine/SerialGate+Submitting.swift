import Synchronization

// The submitting methods of ``SerialGate``: what a caller asks for, by intention. The queueing machinery
// under them, the draining and the disposal fence are in SerialGate.swift.
extension SerialGate {
    // MARK: Submitting
    //
    // Two families of methods, one per kind of gate (see "Submitting" in the type's notes); each method is
    // one intention. They share the machinery in SerialGate.swift (`performOrQueueLocally`, `submitContended`,
    // `submitOrdered`, `queueBookkeeping`, the drain), passing it constants.

    /// Submits an event from outside the gate (a send): performed now when the gate is idle, else left to
    /// the owner. An unordered gate's way in for events.
    ///
    /// - Order: this thread's submissions are performed in the order it made them; a submission from
    ///   inside an operation (reentrant) is performed right after that operation, before what other
    ///   threads queued.
    /// - Waits: a sender outside the gate parks while ``backlogLimit`` operations are queued, until the
    ///   owner takes them (unless waiting would close a cycle of waiting threads, see ``WaitGraph``); the
    ///   owner's own reentrant sends never park.
    /// - Drains: a caller that takes the gate performs what other threads queue meanwhile, and hands a
    ///   flood over to the senders parked on the full backlog after ``batchesBeforeHandOff`` batches.
    ///
    /// `perform` must be the same logic for every submission to one gate.
    @inlinable
    package final func submitEvent(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        if performOrQueueLocally(op, me: me, perform: perform, handOff: false) { return }
        submitContended(op, me: me, bounded: true, handOff: false, perform: perform)
    }

    /// Submits an operation for the caller's own new subscription that calls its subscriber (a join to a
    /// plain subject that ended, which delivers it the terminal event): as ``submitEvent(_:perform:)`` — it parks while the backlog is full, so a thread
    /// subscribing and disposing in a loop cannot keep the backlog full and starve the parked senders —
    /// but a caller that takes the gate hands a flood over to the parked senders after one batch: it came
    /// for its own subscription, not to deliver other threads' stream.
    @inlinable
    package final func submitJoin(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        if performOrQueueLocally(op, me: me, perform: perform, handOff: true) { return }
        submitContended(op, me: me, bounded: true, handOff: true, perform: perform)
    }

    /// Submits an operation that must never park (the end of a source, from its `deinit`): as
    /// ``submitEvent(_:perform:)``, in order with the events, but queued past the bound when the backlog
    /// is full — so use it only where one caller adds at most one such operation.
    @inlinable
    package final func submitWithoutWaiting(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        if performOrQueueLocally(op, me: me, perform: perform, handOff: false) { return }
        submitContended(op, me: me, bounded: false, handOff: false, perform: perform)
    }

    /// Submits bookkeeping that must never wait — the release of a gate's one subscription (an
    /// `Observer`'s, a `Mailbox`'s). The unordered gate's one name for it, with the in-place overload
    /// ``submitBookkeeping(_:inPlace:perform:)``.
    ///
    /// - Gate idle: the caller performs `op` as the owner (it may run user code: a subscription's
    ///   disposal), then gives the gate up, handing a flood over after one batch as
    ///   ``submitJoin(_:perform:)`` does.
    /// - Owned by another thread: `op` is queued for the owner *before* the events queued so far (outside
    ///   the bounded backlog), and the caller returns at once — it never parks, even on a full backlog.
    /// - Owned by the caller (from inside an operation): performed right after the current operation.
    ///
    /// Only for bookkeeping that may be left to the owner indefinitely (see the in-place overload).
    @inlinable
    package final func submitBookkeeping(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        if performOrQueueLocally(op, me: me, perform: perform, handOff: true) { return }
        lock.lock()
        urgent.append(op)
        let acquired = markPendingOrAcquire(me)
        lock.unlock()
        if acquired { release(me, perform: perform, handOff: true) }
    }

    /// Submits bookkeeping that must never wait — a removal — so that the caller never delivers anything
    /// for other subscribers: as ``submitBookkeeping(_:perform:)``, except on an idle gate, where `inPlace`
    /// does it under the lock.
    ///
    /// - Gate idle: the caller takes it *and holds `lock`* while `inPlace` runs, then gives both up.
    ///   `inPlace` must run no user code (nor release the last reference to anything holding user code);
    ///   it returns `false` when `op` needs more than that (a replay, a terminated subject), and the caller
    ///   then performs `op` as an ordinary owner would. While the lock is held nobody can queue anything
    ///   (every queueing path takes it, and an idle-path sender's compare-and-swap fails), so there is
    ///   nothing left for the caller to drain when it lets go: a sender that came meanwhile waited for the
    ///   lock — parked, for a few instructions of bookkeeping — and then takes the idle gate itself.
    /// - Gate owned by another thread: `op` is queued for its owner, before the events queued so far, and
    ///   the caller returns. Bookkeeping never waits for room in the backlog: a submitter that waited would
    ///   be handed the flood (see `markPendingOrAcquire`).
    /// - Owned by the caller (from inside a callback): performed right after the current operation.
    ///
    /// So `dispose()` on a subject other threads are flooding neither becomes its deliverer nor runs other
    /// subscribers' callbacks on the caller's thread, where they might need the caller's locks.
    ///
    /// Only for bookkeeping that *may* be left to the owner indefinitely: the owner performs what others
    /// queue until the queue is empty, so a stream of it from threads that never deliver keeps the owner
    /// from returning. So joins are not queued this way: a subscriber joins under the lock without any
    /// operation (see "Joins" in `SubjectCore`), and one that must be called on subscribing (a replay, a
    /// property's current value) catches up on its own thread (`JoinCatchUp`).
    @inlinable
    package final func submitBookkeeping(_ op: Op, inPlace: (Op) -> Bool, perform: (Op) -> Void) {
        queueBookkeeping(op, ordered: false, inPlace: inPlace, perform: perform)
    }

    /// Submits bookkeeping that must never wait and that is news only after everything queued before it — the
    /// end of an input whose events may still be queued (a flattening operator's inner subscription, which
    /// ended on another thread) — on an unordered gate: behind the operations queued so far, even from the
    /// owner.
    ///
    /// - Gate idle: the caller performs `op` as the owner, then gives the gate up, handing a flood over after
    ///   one batch as ``submitJoin(_:perform:)`` does.
    /// - Owned by another thread: `op` is queued for the owner *behind* the operations queued so far (as an
    ///   event is, but past the bound: it never parks), and the caller returns at once.
    /// - Owned by the caller (from inside an operation): queued behind what other threads queued before it,
    ///   and so behind the caller's own reentrant submissions made before it — where a reentrant
    ///   ``submitEvent(_:perform:)`` or ``submitBookkeeping(_:perform:)`` goes before what others queued.
    ///
    /// Not reported to a ``DeferredSubmissionWatch`` (bookkeeping, as ``submitBookkeeping(_:perform:)``). Only
    /// for bookkeeping that one caller submits at most once per input: it may go past the bound.
    @inlinable
    package final func submitBookkeepingBehindQueued(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        if word.tryTakeIdle(by: me) {
            perform(op)
            release(me, perform: perform, handOff: true)
            return
        }
        lock.lock()
        remote.append(op)
        backlog.store(remote.count)
        // Flags the pending work for the owner — this thread's drain loop when it is the owner (it then takes
        // the shared queue after its local one) — or takes a gate that became idle meanwhile.
        let acquired = markPendingOrAcquire(me)
        lock.unlock()
        if acquired { release(me, perform: perform, handOff: true) }
    }

    /// Runs `body` as the gate's owner when the gate is idle, and returns `true`; returns `false` without
    /// running anything when the gate is owned (by another thread, or by the caller: a reentrant send), and
    /// the caller then submits the operation (``submitEvent(_:perform:)``).
    ///
    /// For an event the caller delivers in place: `body` does exactly what `perform` would do with it, so
    /// the uncontended path never wraps it into an `Op` (an `Observer`'s event: a notification's copy,
    /// retains and releases, went into the `Op` and back out of it per send). After `body`, the gate is
    /// given up as after ``submitEvent(_:perform:)``, performing first what was queued meanwhile.
    @inlinable
    package final func runIfIdle(_ body: () -> Void, perform: (Op) -> Void) -> Bool {
        let me = currentThreadID
        guard word.tryTakeIdle(by: me) else { return false }
        body()
        release(me, perform: perform)
        return true
    }

    // MARK: Submitting to an ordered gate

    /// Submits, in lock order, an event from outside the gate (a set, a send, an execution): the
    /// operation `makeOperation` returns. An ordered gate's way in for events.
    ///
    /// - Order: `makeOperation` runs under the lock at the moment the operation takes its place in the
    ///   gate's order (to update state that must agree with the delivery order, such as a current value;
    ///   `nil`: submit nothing), and operations are performed in that order — a reentrant submission
    ///   too, behind what other threads queued before it.
    /// - Waits: as ``submitEvent(_:perform:)``, a sender outside the gate parks while the backlog is full,
    ///   before `makeOperation` runs.
    /// - Drains: as ``submitEvent(_:perform:)``.
    @inlinable
    package final func submitEventInOrder(_ makeOperation: () -> Op?, perform: (Op) -> Void) {
        submitOrdered(bounded: true, handOff: false, makeOperation, perform: perform)
    }

    /// Who performs the operation an ordered submission is making — for its `makeOperation` closure (called
    /// under `lock`), which may decide by it.
    package enum OrderedSubmissionDelivery {
        /// The gate is idle: the calling thread takes it and performs the operation before its submission
        /// returns.
        case now
        /// The calling thread owns the gate (a submission from inside an operation): it performs the
        /// operation after the current one, behind what was queued before it.
        case afterTheCurrentOperation
        /// Another thread owns the gate (or it was handed over to the parked senders): that thread
        /// performs it.
        case byAnotherThread
    }

    /// Called from an ordered submission's `makeOperation` (under `lock`, where no other submitter can
    /// take or queue anything): who will perform the operation it is making.
    package final func orderedSubmissionDeliveryLocked() -> OrderedSubmissionDelivery {
        let state = word.state
        if state == 0 { return .now }
        return state & ~1 == currentThreadID ? .afterTheCurrentOperation : .byAnotherThread
    }

    /// Submits, in lock order, an operation that must never park: as
    /// ``submitEventInOrder(_:perform:)``, but queued past the bound when the backlog is full. For a
    /// submission made where parking could deadlock or has been done already — the end of a source (from
    /// its `deinit`), a store made while holding what the owner may wait for (`modify`'s, after
    /// ``waitForRoomInOrder(perform:)``), the steps that follow an admitted execution or the user's own
    /// control of a command — so that one caller adds at most one operation past the bound.
    @inlinable
    package final func submitInOrderWithoutWaiting(_ makeOperation: () -> Op?, perform: (Op) -> Void) {
        submitOrdered(bounded: false, handOff: false, makeOperation, perform: perform)
    }

    /// Submits bookkeeping that must never wait — a removal — in lock order: as
    /// ``submitBookkeeping(_:inPlace:perform:)`` (in place under the lock on an idle gate, else left to the
    /// owner, never parking), except that `op` keeps its place in the order: behind the operations queued
    /// before it, and from inside a callback behind what other threads queued before it.
    @inlinable
    package final func submitBookkeepingInOrder(_ op: Op, inPlace: (Op) -> Bool, perform: (Op) -> Void) {
        queueBookkeeping(op, ordered: true, inPlace: inPlace, perform: perform)
    }

    /// Called with `lock` held (and returns with it held), before taking something the gate's owner may
    /// wait for: waits, as ``submitEventInOrder(_:perform:)`` would, while the backlog is full — so the
    /// caller's later submission (``submitInOrderWithoutWaiting(_:perform:)``) needs no room. A gate handed
    /// off to the senders that were parked is taken over and drained when this thread was one of them, as
    /// an ordered submission that submitted nothing would (see `submittedNothing`).
    @inlinable
    package final func waitForRoomInOrder(perform: (Op) -> Void) {
        if remote.count >= Self.backlogLimit { waitForRoomInOrderSlow(perform: perform) }
    }

    @usableFromInline
    final func waitForRoomInOrderSlow(perform: (Op) -> Void) {
        let me = currentThreadID
        guard waitWhileBacklogFull(me), word.state == 1,
            markPendingOrAcquire(me, takingHandOff: true)
        else { return }
        lock.unlock()
        release(me, perform: perform)
        lock.lock()
    }
}
