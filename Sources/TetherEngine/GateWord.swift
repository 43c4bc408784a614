import Synchronization

/// The state word of a ``SerialGate``: which thread owns the gate, and whether other threads queued work
/// for it. Every access to it is one of the transitions below, and each states its memory ordering once,
/// here, with the reason.
///
/// Bit 0 is the *pending* bit (work waits in the gate's shared queue); the other bits are the owner's
/// ``currentThreadID`` (never 0, bit 0 clear), or 0 when nobody owns the gate. So the word is in one of
/// four states:
///
/// | word | the gate is |
/// |---|---|
/// | `0` | idle: nothing running, nothing queued |
/// | `me` | owned by `me`, nothing queued by others |
/// | `me \| 1` | owned by `me`, with work queued by others (or by `me`, on an ordered gate) |
/// | `1` | handed off: ownerless with work queued, reserved for the senders parked on the full backlog |
///
/// **Who writes it.** A thread takes an idle gate lock-free (``tryTakeIdle(by:)``, unordered gates) or under
/// the gate's lock (``set(underLock:)``, ``tryTake(underLock:replacing:)``). Under the lock, other threads only
/// add the pending bit (``tryMarkPending(replacing:)``). The owner gives the gate up lock-free when nothing is
/// pending (``tryRelease(by:)``), or, having found the bit, under the lock (``release(underLock:)``).
///
/// ```swift
/// let word = GateWord()
/// let me = currentThreadID
/// if word.tryTakeIdle(by: me) {
///     // … perform the operation …
///     _ = word.tryRelease(by: me)   // false: something was queued meanwhile; drain it first
/// }
/// ```
@usableFromInline
package struct GateWord: ~Copyable, Sendable {
    @usableFromInline let raw = Atomic<UInt>(0)

    /// An idle word.
    @inlinable
    package init() {}

    /// The word as it is (relaxed). Exact for the owner about itself — only the owner stores its own ID, and
    /// only the owner gives the gate up — and for anything the gate's lock orders, when read under it;
    /// elsewhere a hint that a compare-and-swap then checks.
    @inlinable
    package var state: UInt {
        raw.load(ordering: .relaxed)
    }

    /// The word, acquiring: a caller that reads 0 sees everything the last owner did before it gave the gate
    /// up (it released the word with a releasing or sequentially consistent operation).
    @inlinable
    package var stateAcquiring: UInt {
        raw.load(ordering: .acquiring)
    }

    /// The owner's thread ID (0: none), sequentially consistent: for the disposal fence
    /// (``CallbackRendezvous``), whose disposer must read the owner in the single total order of
    /// sequentially consistent operations.
    @inlinable
    package var ownerSequentiallyConsistent: UInt {
        raw.load(ordering: .sequentiallyConsistent) & ~1
    }

    /// Whether `me` (the caller's ``currentThreadID``) owns the gate: exact (see ``state``).
    @inlinable
    package borrowing func isOwned(by me: UInt) -> Bool {
        state & ~1 == me
    }

    /// Takes an idle gate without the lock: a relaxed look first, then a compare-and-swap from 0.
    /// Sequentially consistent, as the disposal fence requires of taking ownership (see
    /// ``CallbackRendezvous``), and acquiring what the previous owner did.
    @inlinable
    package borrowing func tryTakeIdle(by me: UInt) -> Bool {
        state == 0 && raw.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged
    }

    /// Stores `state` under the gate's lock where no other thread can write the word at the same moment: the
    /// gate is idle and every thread that could take it holds the lock to do so (an ordered gate), or the
    /// caller owns it. Relaxed: the lock, or the caller's ownership, orders it; the caller's later unlock or
    /// release publishes it.
    @inlinable
    package borrowing func set(underLock state: UInt) {
        raw.store(state, ordering: .relaxed)
    }

    /// Under the gate's lock, replaces `expected` — idle, or handed off — by `desired`, an ownership of the
    /// caller's; returns whether it did, and the word found. Acquiring: the new owner sees what the previous
    /// one did. (Publishing the new ownership to the disposal fence is the lock's release, which follows.)
    @inlinable
    package borrowing func tryTake(underLock desired: UInt, replacing expected: UInt) -> (taken: Bool, found: UInt) {
        let (exchanged, original) = raw.compareExchange(expected: expected, desired: desired, ordering: .acquiring)
        return (exchanged, original)
    }

    /// Under the gate's lock, sets the pending bit on `expected` (owned by another thread, bit clear);
    /// returns whether it did, and the word found. Relaxed: the queued work itself is handed over by the
    /// lock, which the owner takes before it swaps the queue out.
    @inlinable
    package borrowing func tryMarkPending(replacing expected: UInt) -> (marked: Bool, found: UInt) {
        let (exchanged, original) = raw.compareExchange(expected: expected, desired: expected | 1, ordering: .relaxed)
        return (exchanged, original)
    }

    /// The owner gives the gate up when nothing is pending: a compare-and-swap from its own ID to 0, which
    /// fails when another thread set the pending bit. Sequentially consistent: it publishes the change of
    /// owner to the disposal fence (see ``CallbackRendezvous/ownerLeft(wakingAt:)``) and releases what the
    /// owner did to the next one.
    @inlinable
    package borrowing func tryRelease(by me: UInt) -> Bool {
        raw.compareExchange(expected: me, desired: 0, ordering: .sequentiallyConsistent).exchanged
    }

    /// The owner, under the gate's lock (where nobody else writes the word while it owns the gate), leaves
    /// the state it hands over: 0 (idle), 1 (handed off to the parked senders), or its own ID with the
    /// pending bit cleared (it took the queued work). Releasing: whoever takes the gate next, or reads it
    /// idle, sees what the owner did.
    @inlinable
    package borrowing func release(underLock state: UInt) {
        raw.store(state, ordering: .releasing)
    }
}
