import Synchronization
import TetherShims

/// Serializes operations submitted from any number of threads, without holding a lock while they run,
/// and lets a disposer wait for exactly one subscription's callback.
///
/// ## Delivery (guarantees 3 and 4)
///
/// The gate has at most one *owner*: the thread performing operations. `word` (a ``GateWord``, where each
/// transition's memory ordering is explained) holds the owner's thread ID and a *pending* bit. A submission
///
/// - to an idle gate makes the caller the owner (one compare-and-swap): it performs the operation, then
///   whatever was queued meanwhile, and releases the gate (one more compare-and-swap) — the uncontended
///   path takes no lock and allocates nothing;
/// - from the owner itself (a reentrant send from inside a callback) is appended to an owner-only local
///   queue and performed right after the current operation — never nested, never lost;
/// - from another thread while the gate is owned is appended, under ``Lock``, to the shared queue, and
///   sets the pending bit; the sender returns at once. The owner, finding the bit set when it tries to
///   release, swaps the whole shared queue with its own empty buffer under the lock — an O(1) hand-off
///   whatever the backlog — and performs that batch outside the lock.
///
/// **Bounded backlog.** A sender that finds ``backlogLimit`` operations already queued waits (parked)
/// until the owner takes the batch, so memory stays bounded when senders outrun the subscriber: at most
/// `backlogLimit` operations wait in the queue, plus the batch being performed. Nothing is dropped. Only
/// senders outside the gate wait — the owner's own reentrant sends never do — and a wait that would close
/// a cycle of waiting threads (this sender is itself delivering something the owner waits for) is not
/// started: that send is queued past the bound instead (see ``WaitGraph``).
///
/// A submission left for later (queued for the owner, or behind the caller's own delivery) is reported to
/// the calling thread's ``DeferredSubmissionWatch``, if it runs under one (all but a sole subscription's
/// release queued for another thread, ``submitBookkeeping(_:perform:)``, and an input's end,
/// ``submitBookkeepingBehindQueued(_:perform:)``, which a watcher has no use for).
///
/// ## Submitting
///
/// A gate is *unordered* or *ordered*, by the family of methods it is used with — one family per gate,
/// never both. On an unordered gate a reentrant submission goes before what other threads queued; on an
/// ordered one every submitter holds the lock while its operation takes its place, so it can update state
/// that must agree with the delivery order (a current value), and a reentrant submission goes behind what
/// was queued before it. In each family, one method per intention:
///
/// - an event from outside (a send, a set): ``submitEvent(_:perform:)``, ``submitEventInOrder(_:perform:)``
///   — parks while the backlog is full; an owner it becomes hands a flood over after
///   ``batchesBeforeHandOff`` batches. ``runIfIdle(_:perform:)`` delivers one in place when the gate is
///   idle, without making an operation of it;
/// - an operation for the caller's own new subscriber (a join that calls it): ``submitJoin(_:perform:)``
///   — parks while the backlog is full; an owner it becomes hands a flood over after one batch;
/// - an operation that must never park, in order with the events (the end of a source, a store made
///   while holding what the owner may wait for, a command's control steps):
///   ``submitWithoutWaiting(_:perform:)``, ``submitInOrderWithoutWaiting(_:perform:)`` — past the bound
///   when the backlog is full, at most one per such caller;
/// - bookkeeping that never waits (a removal, a sole subscription's release):
///   ``submitBookkeeping(_:perform:)`` and ``submitBookkeeping(_:inPlace:perform:)`` (before the queued
///   events), ``submitBookkeepingInOrder(_:inPlace:perform:)`` (in order) — never parks, is left to the
///   owner when the gate is owned, and the in-place forms do it under the lock when the gate is idle, so
///   the caller delivers nothing for others; ``submitBookkeepingBehindQueued(_:perform:)`` (an unordered
///   gate's bookkeeping that is news only after what is queued: an input's end) goes behind the queued
///   operations, even from the owner.
///
/// ## Disposal (guarantee 2)
///
/// Every callback into a subscriber runs between ``enterCallback(_:)`` and ``exitCallback()``; a disposer
/// marks its subscription disposed, then calls ``waitForCallback(_:skipped:)``, which returns once no
/// callback of that subscription runs on another thread and waits for nothing else. A gate that serves
/// one subscription uses ``acknowledgeDisposal()`` and ``waitForSoleSubscription()`` instead. The fence
/// and its proofs (why a disposer can't miss a callback, why a parked disposer is woken, why disposal
/// can't deadlock) are ``CallbackRendezvous``'s: the gate is its owner while `word` names a thread, and
/// every release of the gate wakes its disposers. A disposer delivers nothing itself: its removal is done
/// in place under the lock when the gate is idle, or queued for the owner
/// (``submitBookkeeping(_:inPlace:perform:)``).
///
/// `open` only so that the sources of `Observable` (a subject's core, a property's storage, a mailbox) can
/// be gates: the engine is a target of its own and Swift has no "package open". Not a product: nothing
/// outside this package can import it.
open class SerialGate<Op>: @unchecked Sendable {
    // Safety: `remote`, `urgent`, `parkedSenders` and `inFlight` are guarded by `lock`; `batch` and `local` are
    // touched only by the owner (ownership is handed over through `word` with acquire/release).

    /// Bit 0: work is queued in `remote`; the other bits: the owner's thread ID (0: idle).
    @usableFromInline final let word = GateWord()
    /// The disposal fence (guarantee 2): which subscription's callback the owner runs, who waits for it.
    @usableFromInline final let rendezvous = CallbackRendezvous()
    /// `remote.count`, readable without the lock (by parked senders' checks, which only decide whether to
    /// keep waiting: a hint).
    @usableFromInline final let backlog = RelaxedCounter()
    /// How many operations wait in the backlog now (a snapshot, for tests of the bound).
    package final var queuedCount: Int { backlog.value }
    @usableFromInline final let lock = Lock()
    @usableFromInline final let resourceToken = ResourceToken()  // LiveResources (leak checks)
    @usableFromInline @exclusivity(unchecked) final var remote: ContiguousArray<Op> = []
    /// Bookkeeping queued by other threads (removals): outside the bound, performed before `remote`.
    @usableFromInline @exclusivity(unchecked) final var urgent: ContiguousArray<Op> = []
    @usableFromInline @exclusivity(unchecked) final var parkedSenders = 0
    /// The size of the last batch an owner took (0 before the first), under `lock`: with 1, a bound on how
    /// many operations the owner still performs before what is queued now.
    @usableFromInline @exclusivity(unchecked) final var inFlight = 0
    @usableFromInline @exclusivity(unchecked) final var batch: ContiguousArray<Op> = []
    @usableFromInline @exclusivity(unchecked) final var urgentBatch: ContiguousArray<Op> = []
    /// The owner's reentrant submissions, performed after the current operation.
    @usableFromInline @exclusivity(unchecked) final var local = ReentrantQueue<Op>()

    /// How many operations may wait in the shared queue before a sender outside the gate waits.
    @inlinable
    package static var backlogLimit: Int { 4096 }

    /// How many batches an owner performs for other threads before it hands a flood over to the senders
    /// parked on the full backlog (an owner that only came for its own subscription — a subscriber
    /// joining — hands over after one): nobody is kept delivering another thread's endless stream.
    @inlinable
    package static var batchesBeforeHandOff: Int { 4 }

    /// An idle gate with nothing queued.
    @inlinable
    public init() {}

    /// Where senders waiting for the backlog park.
    @inlinable
    final var sendersAddress: UInt { parkingAddress(of: self) }

    /// Where disposers waiting for a callback park.
    @inlinable
    final var disposersAddress: UInt { parkingAddress(of: self) &+ 1 }

    /// Whether the calling thread is currently performing an operation of this gate.
    @inlinable
    package final var isOwnedByCurrentThread: Bool {
        word.isOwned(by: currentThreadID)
    }

    // MARK: The lock a source's state shares

    /// Runs `body` under the gate's lock — the lock that also guards the state of the source built on the
    /// gate (a subject's join queue and replay, a property's value and its join queue), so that a source's
    /// transition and its place in the gate's order are taken together. `body` must not run user code,
    /// submit to this gate or wait.
    ///
    /// The gate's fields are the engine's own: a source reaches its queues and its lock only through this
    /// method and the submitting ones (``submitEventInOrder(_:perform:)`` and its family).
    @inlinable
    package final func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock(body)
    }

    /// ``withLock(_:)`` for a body that takes `value` over — a reference moved into a queue under the lock
    /// without the retain a captured one would cost.
    @inlinable
    package final func withLock<Value, R>(moving value: consuming Value, _ body: (consuming Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(value)
    }

    /// How many reentrant submissions wait behind the current operation (for debugging reports).
    package final var reentrantQueueCount: Int { local.count }

    /// The latest reentrant submission still queued, if any (for debugging reports).
    package final var lastReentrantSubmission: Op? { local.last }

    // MARK: Queueing (the machinery under the submitting methods)

    /// The uncontended paths: queues `op` locally when the caller owns the gate (a reentrant submission),
    /// or performs it when the gate is idle. Returns `false` when another thread owns the gate.
    @inlinable
    final func performOrQueueLocally(
        _ op: Op, me: UInt, perform: (Op) -> Void, handOff: Bool = false
    ) -> Bool {
        if word.isOwned(by: me) {
            local.append(op)
            DeferredSubmissionWatch.noteDeferred()
            return true
        }
        if word.tryTakeIdle(by: me) {
            perform(op)
            release(me, perform: perform, handOff: handOff)
            return true
        }
        return false
    }

    /// An ordered submission: every submitter holds the lock while its operation takes its place. With
    /// `bounded`, a sender outside the gate waits while the backlog is full; with `handOff`, a caller that
    /// takes the gate hands a flood over after one batch (see `release`).
    ///
    /// The idle gate's path (room in the backlog, no owner) is inlined into the caller, with `perform`: a set
    /// of a `MutableProperty` is then the lock, the store, the callbacks and the release's compare-and-swap,
    /// with no call through a function pointer (W6). The rest is ``submitOrderedLocked(_:bounded:handOff:_:perform:)``.
    @inlinable @inline(__always)
    final func submitOrdered(
        bounded: Bool, handOff: Bool, _ makeOperation: () -> Op?, perform: (Op) -> Void
    ) {
        let me = currentThreadID
        lock.lock()
        // Acquiring: synchronizes with the previous owner's releasing compare-and-swap. Idle, with every
        // submitter of an ordered gate holding the lock: nothing makes the word non-zero until it unlocks.
        if _fastPath(word.stateAcquiring == 0 && remote.count < Self.backlogLimit) {
            guard let op = makeOperation() else {
                submittedNothing(me, perform: perform, handOff: handOff)
                return
            }
            // A plain store takes the gate.
            word.set(underLock: me)
            lock.unlock()
            perform(op)
            release(me, perform: perform, handOff: handOff)
            return
        }
        submitOrderedLocked(me, bounded: bounded, handOff: handOff, makeOperation, perform: perform)
    }

    /// ``submitOrdered(bounded:handOff:_:perform:)`` past its idle path: called with `lock` held; unlocks.
    @inlinable @inline(never)
    final func submitOrderedLocked(
        _ me: UInt, bounded: Bool, handOff: Bool, _ makeOperation: () -> Op?, perform: (Op) -> Void
    ) {
        let wasParked = bounded && remote.count >= Self.backlogLimit && waitWhileBacklogFull(me)
        guard let op = makeOperation() else {
            submittedNothing(me, perform: perform, handOff: handOff)
            return
        }
        // Acquiring: synchronizes with the previous owner's releasing compare-and-swap.
        let state = word.stateAcquiring
        if state == 0 {
            // Idle, and every submitter of an ordered gate holds the lock: a plain store takes it.
            word.set(underLock: me)
            lock.unlock()
            perform(op)
            release(me, perform: perform, handOff: handOff)
            return
        }
        remote.append(op)
        backlog.store(remote.count)
        // How many operations may be performed before this one (the deferral's bound, see
        // `DeferredSubmissionWatch`): those queued before it, and those the owner is performing — the
        // rest of its batch (this thread's own, or, for another owner, the last batch it took or its one
        // operation). An ordered gate queues reentrant submissions in order too, so nothing overtakes.
        if state & ~1 == me {
            // Reentrant: queued behind earlier submissions; performed by this thread's drain loop.
            word.set(underLock: me | 1)
            let ahead = remote.count - 1 + batch.count + 1
            lock.unlock()
            DeferredSubmissionWatch.noteDeferred(ahead: ahead)
            return
        }
        let acquired = markPendingOrAcquire(me, takingHandOff: wasParked)
        let ahead = remote.count - 1 + max(inFlight, 1)
        lock.unlock()
        if acquired {
            release(me, perform: perform, handOff: handOff)
        } else {
            DeferredSubmissionWatch.noteDeferred(ahead: ahead)
        }
    }

    /// Called with `lock` held when an ordered submission turned out to have nothing to submit; unlocks. A
    /// gate handed off to the parked senders must not be left ownerless with work pending when the caller
    /// was the last of them: it takes the gate and drains. Out of line: the common path stays small.
    @usableFromInline
    final func submittedNothing(_ me: UInt, perform: (Op) -> Void, handOff: Bool) {
        let acquired = word.state == 1 && parkedSenders == 0 && markPendingOrAcquire(me)
        lock.unlock()
        if acquired { release(me, perform: perform, handOff: handOff) }
    }

    /// Bookkeeping with an in-place path (see ``submitBookkeeping(_:inPlace:perform:)``): an unordered
    /// gate queues it before the events (`urgent`), an ordered one in order with them (`ordered`).
    @inlinable
    final func queueBookkeeping(
        _ op: Op, ordered: Bool, inPlace: (Op) -> Bool, perform: (Op) -> Void
    ) {
        let me = currentThreadID
        if !ordered && word.isOwned(by: me) {
            local.append(op)
            DeferredSubmissionWatch.noteDeferred()
            return
        }
        lock.lock()
        var state = word.stateAcquiring
        while true {
            if state == 0 {
                let (exchanged, original) = word.tryTake(underLock: me, replacing: 0)
                if !exchanged {
                    state = original
                    continue
                }
                if inPlace(op) {
                    // Nobody else writes `word` while this thread owns the gate and holds the lock.
                    word.release(underLock: 0)
                    lock.unlock()
                    rendezvous.ownerLeft(wakingAt: disposersAddress)
                    return
                }
                lock.unlock()
                perform(op)
                release(me, perform: perform, handOff: true)
                return
            }
            if state & ~1 != me && state & ~1 != 0 && state & 1 == 0 {
                // Owned by another thread: flag the pending work (or, if it was released meanwhile, retry).
                let (exchanged, original) = word.tryMarkPending(replacing: state)
                if !exchanged {
                    state = original
                    continue
                }
            }
            break
        }
        if ordered {
            remote.append(op)
            backlog.store(remote.count)
        } else {
            urgent.append(op)
        }
        if state & ~1 == me {
            // Reentrant in an ordered gate: behind what other threads queued before it.
            word.set(underLock: me | 1)
        } else if state == 1 && parkedSenders == 0 {
            // Handed off to the senders parked on the full backlog, and none of them is left to take it
            // (never expected: the last one takes it in its own lock section; but nothing may be stranded).
            if markPendingOrAcquire(me) {
                lock.unlock()
                release(me, perform: perform, handOff: true)
                return
            }
        }
        lock.unlock()
        DeferredSubmissionWatch.noteDeferred()
    }

    @inlinable
    final func submitContended(_ op: Op, me: UInt, bounded: Bool, handOff: Bool = false, perform: (Op) -> Void) {
        lock.lock()
        let wasParked = bounded && remote.count >= Self.backlogLimit && waitWhileBacklogFull(me)
        remote.append(op)
        backlog.store(remote.count)
        let acquired = markPendingOrAcquire(me, takingHandOff: wasParked)
        lock.unlock()
        if acquired {
            release(me, perform: perform, handOff: handOff)
        } else {
            DeferredSubmissionWatch.noteDeferred()
        }
    }

    /// Called with `lock` held: flags pending work for the current owner, or, if the gate became idle,
    /// takes ownership with the pending bit set, so the queue gets drained.
    ///
    /// A gate handed off with work pending (see `drainAndRelease`) is reserved for the senders that were
    /// parked on the full backlog (`takingHandOff`): another thread taking it first would leave them parked
    /// behind a backlog that it keeps full (threads subscribing and disposing in a tight loop did that to a
    /// `MutableProperty`'s writers). Once none of them is left, anyone takes it.
    @inlinable
    final func markPendingOrAcquire(_ me: UInt, takingHandOff: Bool = false) -> Bool {
        var current = word.state
        while true {
            if current == 1 && !takingHandOff && parkedSenders != 0 {
                return false
            }
            if current & ~1 == 0 {
                // Idle — or handed off with work pending: take it.
                let (exchanged, original) = word.tryTake(underLock: me | 1, replacing: current)
                if exchanged { return true }
                current = original
            } else if current & 1 == 1 {
                return false
            } else {
                let (exchanged, original) = word.tryMarkPending(replacing: current)
                if exchanged { return false }
                current = original
            }
        }
    }

    /// Called with `lock` held (and returns with it held): while the queue is full and another thread owns
    /// the gate, parks until the owner takes the batch. Gives up (queueing past the bound) when waiting
    /// would close a cycle of waiting threads. Returns whether the caller may take a gate handed off to the
    /// senders waiting for room: it parked, or it found the full queue handed off with nobody draining it.
    ///
    /// The second case keeps the bound: while a handed-off gate waits for a woken sender to come back,
    /// nobody owns the gate, so a sender finding the queue full has nobody to wait for; if each queued past
    /// the bound, a loaded machine would let the backlog overrun it. The first of them takes the gate and
    /// drains, under `lock`, so at most one operation goes past it.
    @usableFromInline
    final func waitWhileBacklogFull(_ me: UInt) -> Bool {
        var parked = false
        while remote.count >= Self.backlogLimit {
            let state = word.state
            let owner = state & ~1
            if owner == 0 { return parked || state == 1 }
            if owner == me { return parked }
            parkedSenders += 1
            lock.unlock()
            let outcome = RoomWait.park(waitingFor: owner, on: sendersAddress) {
                backlog.value >= Self.backlogLimit && word.state & ~1 != 0
            }
            lock.lock()
            parkedSenders -= 1
            switch outcome {
            case .notStarted: return parked
            case .broken: return true
            case .woken: parked = true
            }
        }
        return parked
    }

    // MARK: Draining

    /// Gives the gate up after an operation, performing first what was queued meanwhile.
    ///
    /// With `handOff` (the owner only took the gate for its own subscription — a join, a sole
    /// subscription's release; a removal done in place never drains, see
    /// ``submitBookkeeping(_:inPlace:perform:)``), it does not become the drainer of other threads' flood
    /// for long: after one batch, when senders are parked on a full backlog, it leaves the gate ownerless
    /// with the pending bit set and wakes them; the first to come back takes the gate over, and nobody else
    /// may before them (see `markPendingOrAcquire`). Any other owner does the same after
    /// ``batchesBeforeHandOff`` batches. So neither `subscribe` nor a `send` is kept delivering an endless
    /// stream that other threads send, and the senders parked on the backlog are not starved by threads
    /// that keep queueing bookkeeping past the bound.
    @inlinable @inline(__always)
    final func release(_ me: UInt, perform: (Op) -> Void, handOff: Bool = false) {
        if local.isEmpty, word.tryRelease(by: me) {
            rendezvous.ownerLeft(wakingAt: disposersAddress)
            return
        }
        drainAndRelease(me, perform: perform, handOff: handOff)
    }

    @inlinable
    final func drainLocal(perform: (Op) -> Void) {
        while let op = local.next() { perform(op) }
    }

    @inlinable @inline(never)
    final func drainAndRelease(_ me: UInt, perform: (Op) -> Void, handOff: Bool = false) {
        // Batches performed for other threads: past a few, a sender stops delivering another thread's flood
        // as soon as the flooding senders are parked on the full backlog (they take the gate over).
        var batches = 0
        while true {
            drainLocal(perform: perform)
            if word.tryRelease(by: me) {
                rendezvous.ownerLeft(wakingAt: disposersAddress)
                return
            }
            // The pending bit is set: take what other threads queued, in one swap.
            lock.lock()
            if batches >= (handOff ? 1 : Self.batchesBeforeHandOff) && parkedSenders != 0 {
                // Leave the flood to its senders: ownerless, pending, reserved for a woken sender.
                word.release(underLock: 1)
                lock.unlock()
                ParkingLot.unparkAll(sendersAddress)
                rendezvous.ownerLeft(wakingAt: disposersAddress)
                return
            }
            swap(&remote, &batch)
            if !urgent.isEmpty { swap(&urgent, &urgentBatch) }
            backlog.store(0)
            inFlight = batch.count &+ urgentBatch.count
            let sendersWait = parkedSenders != 0
            word.release(underLock: me)
            lock.unlock()
            if sendersWait { ParkingLot.unparkAll(sendersAddress) }
            rendezvous.ownerLeft(wakingAt: disposersAddress)
            if !urgentBatch.isEmpty {
                for op in urgentBatch { perform(op) }
                urgentBatch.removeAll(keepingCapacity: urgentBatch.capacity <= 256)
            }
            var index = 0
            let count = batch.count
            while index < count {
                perform(batch[index])
                index += 1
                drainLocal(perform: perform)
            }
            batch.removeAll(keepingCapacity: batch.capacity <= 4096)
            batches &+= 1
        }
    }

    // MARK: Callbacks and disposal

    /// Publishes that the owner is about to call subscription `id` (see ``CallbackRendezvous/enter(_:wakingAt:)``).
    ///
    /// The caller then checks that subscription's disposed flag with a sequentially consistent load, and
    /// calls only if it is clear; if it is set, it sets the subscription's `skipped` flag (see
    /// ``waitForCallback(_:skipped:)``).
    @inlinable
    package final func enterCallback(_ id: UInt) {
        rendezvous.enter(id, wakingAt: disposersAddress)
    }

    /// Publishes that the owner is no longer in a callback.
    @inlinable
    package final func exitCallback() {
        rendezvous.exit()
    }

    /// The gate's owner for the rendezvous: its thread ID, or 0 when the gate is idle.
    @inlinable
    final func ownerThread() -> UInt {
        word.ownerSequentiallyConsistent
    }

    /// Returns once no callback of subscription `id` runs on another thread (or the owner reported, through
    /// `flags`, that it found the subscription disposed and will never call it).
    ///
    /// Call it after marking the subscription disposed (``SubscriberFlags/markDisposed()``). Returns at
    /// once when called from the owner thread (from inside a callback), when the gate is idle, or when the
    /// owner is calling another subscription (see ``CallbackRendezvous/waitForCallback(_:parkingAt:owner:skipped:)``).
    @inlinable
    package final func waitForCallback(_ id: UInt, flags: borrowing SubscriberFlags) {
        rendezvous.waitForCallback(id, parkingAt: disposersAddress) {
            ownerThread()
        } skipped: {
            flags.wasSkipped
        }
    }

    /// Called by the owner for each callback into subscription `id`: publishes it in the fence
    /// (``enterCallback(_:)``), then runs `body` unless the subscription was disposed — in which case it
    /// reports the skip through `flags`, so that a disposer waiting for this callback returns. The owner calls
    /// ``exitCallback()`` after the last callback of its operation.
    @inlinable @inline(__always)
    package final func callUnlessDisposed(_ id: UInt, _ flags: borrowing SubscriberFlags, _ body: () -> Void) {
        enterCallback(id)
        if !flags.disposedAtCallback() { body() }
    }

    // MARK: Disposal for a gate that serves one subscription (an Observer, a Mailbox)

    /// Called by the owner when, at a callback boundary, it finds its one subscription disposed: from now
    /// on it calls nothing, and a disposer waiting in ``waitForSoleSubscription()`` may return (see
    /// ``CallbackRendezvous/acknowledgeDisposal(wakingAt:)``). The callbacks themselves cost one relaxed
    /// load of the flag.
    @inlinable
    package final func acknowledgeDisposal() {
        rendezvous.acknowledgeDisposal(wakingAt: disposersAddress)
    }

    /// Returns once no callback of this gate's one subscription runs on another thread, after the caller
    /// marked it disposed with a sequentially consistent store (see ``acknowledgeDisposal()``).
    @inlinable
    package final func waitForSoleSubscription() {
        rendezvous.waitForSoleSubscription(parkingAt: disposersAddress) { ownerThread() }
    }
}
