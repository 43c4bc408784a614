import Synchronization
import TetherShims

/// The delivery state of a source whose deliveries are confined to one isolation, one at a time — an
/// `@Observed` property's observers, which are told of a set on the thread that sets, inside the set —
/// while its subscribers may be disposed from any thread.
///
/// Nothing is queued across threads here: the source keeps its subscriber list and its reentrancy queue in
/// plain owner-only variables. What other threads need is the *disposal fence* of guarantee 2 — nothing
/// reaches a subscriber after its `dispose()` returns, and a disposer never waits for anything but its own
/// subscriber's callback in flight — and a way to tell the owner that a disposed subscriber may be dropped
/// from its list. Both live here, with the memory orderings that make them sound, so the source has none.
///
/// The owner, for each delivery: ``begin(epoch:)``; for each subscriber,
/// ``callUnlessDisposed(_:_:wakingAt:_:)``; then ``end(wakingAt:)``. A disposer marks its subscriber's
/// ``SubscriberFlags`` disposed, then calls ``waitForCallback(_:flags:parkingAt:)``.
///
/// **Why it is sound.** This is ``CallbackRendezvous``'s protocol with `active` as the owner word:
/// - ``begin(epoch:)`` publishes the delivering thread with a sequentially consistent store, before the
///   first callback's read of the disposed flag; a disposer that finds no delivery (a sequentially
///   consistent load) therefore comes before that store in the total order of sequentially consistent
///   operations, and so does its store of the flag: the owner will see it, and skip the subscriber.
/// - ``end(wakingAt:)`` publishes the end with a *release* store — not a sequentially consistent one: the
///   releasing store orders every callback of the delivery before it, so a disposer that reads 0 sees them
///   finished; and waking a parked disposer needs the store to come before the owner's read of the
///   disposers count, which is the rendezvous's asymmetric pair: a compiler barrier here
///   (`tether_light_barrier`), the process-wide barrier in the disposer's slow path, the only path that
///   parks. The next ``begin(epoch:)``'s sequentially consistent store comes after this one in the word's
///   modification order, so the first argument is unaffected. This saves an `xchg` per set on x86.
/// - The low bit of the word alternates per delivery (`epoch`), so a disposer that waits for one delivery
///   stops when it ends, even if the same thread starts the next at once; the next one finds the flag.
///
/// ```swift
/// final class Observers {
///     var delivery = ConfinedDelivery()   // in the source object, as a stored property
/// }
/// ```
@usableFromInline
package struct ConfinedDelivery: ~Copyable, Sendable {
    /// The delivering thread's ID with the delivery's epoch in bit 0, or 0.
    @usableFromInline let active = Atomic<UInt>(0)
    /// Set once a disposed subscriber may be dropped from the owner's list.
    @usableFromInline let compactionRequested = AtomicFlag()
    /// The disposal fence.
    @usableFromInline let rendezvous = CallbackRendezvous()

    /// No delivery, nothing to drop.
    @inlinable
    package init() {}

    /// `active`, as a disposer reads it: sequentially consistent, after its store of the subscriber's disposed
    /// flag (the fence's protocol, see the type's notes).
    @inlinable
    var activeSequentiallyConsistent: UInt {
        active.load(ordering: .sequentiallyConsistent)
    }

    // MARK: Owner side (the source's isolation)

    /// A delivery begins on the calling thread. `epoch`: a number the owner advances per delivery (only its
    /// low bit is used).
    @inlinable
    package borrowing func begin(epoch: UInt) {
        active.store(currentThreadID | (epoch & 1), ordering: .sequentiallyConsistent)
    }

    /// Calls `body` — the callback of subscriber `id` (its address, not 0 or 1) — unless the subscriber was
    /// disposed; publishes it in the fence first, so that its disposer waits for it.
    @inlinable @inline(__always)
    package borrowing func callUnlessDisposed(
        _ id: UInt, _ flags: borrowing SubscriberFlags, wakingAt address: UInt, _ body: () -> Void
    ) {
        rendezvous.enter(id, wakingAt: address)
        if !flags.disposedAtCallback() { body() }
    }

    /// The delivery ends: wakes the disposers parked on `address` for one of its callbacks.
    @inlinable
    package borrowing func end(wakingAt address: UInt) {
        rendezvous.exit()
        active.store(0, ordering: .releasing)
        // The light half of the pair whose heavy half the parking disposer runs (see the type's notes).
        tether_light_barrier()
        rendezvous.ownerLeft(wakingAt: address)
    }

    /// Whether a disposer asked, since the last call, for disposed subscribers to be dropped; clears the
    /// request. Acquiring: what the disposer released before asking is visible.
    @inlinable
    package borrowing func takeCompactionRequest() -> Bool {
        compactionRequested.takeIfSet()
    }

    // MARK: Any thread

    /// Asks the owner to drop disposed subscribers at its next delivery (after their callbacks were
    /// released: the release is published with this store).
    @inlinable
    package borrowing func requestCompaction() {
        compactionRequested.store(true)
    }

    /// Called by a disposer after ``SubscriberFlags/markDisposed()``: returns once no callback of subscriber
    /// `id` runs on another thread (it waits for nothing else). Returns `true` when the calling thread is
    /// itself delivering (a callback disposes): its subscriber's callback may be on this very stack.
    @inlinable
    package borrowing func waitForCallback(
        _ id: UInt, flags: borrowing SubscriberFlags, parkingAt address: UInt
    ) -> Bool {
        let observed = activeSequentiallyConsistent
        if observed == 0 { return false }
        if observed & ~1 == currentThreadID { return true }
        // The rendezvous's owner is the delivery seen here, for as long as it lasts.
        rendezvous.waitForCallback(id, parkingAt: address) {
            activeSequentiallyConsistent == observed ? observed & ~1 : 0
        } skipped: {
            flags.wasSkipped
        }
        return false
    }
}
