import Synchronization

/// A word that names the thread owning something — a `MutableProperty`'s `modify` in progress — and lets
/// other threads wait (parked, through
/// ``ParkingLot``) until that owner releases it.
///
/// The word holds 0 (free) or the owner's ``currentThreadID`` (never 0, bit 0 clear). Bit 0 is the
/// *waiters bit*: a thread sets it before it parks, and the owner releases the word with one exchange to 0
/// that tells whether the bit was set, so an owner nobody waited for wakes nobody. The parking address is
/// the caller's (one per waiting queue, usually derived from the object that holds the word): every wait
/// and every wake of one queue must use the same address.
///
/// **Why a waiter can't miss a wake-up.** A waiter parks only while bit 0 is set, and checks that under
/// the parking bucket's mutex (``ParkingLot/park(on:while:)``). It sets the bit with a compare-and-swap
/// from the owner's exact word, so the owner's releasing exchange, which comes later in the word's
/// modification order, returns the bit and the owner wakes — and the wake takes that same bucket mutex.
/// So either the waiter's check ran before the exchange, and the waiter is in the bucket's queue when the
/// wake looks, or it ran after, and the waiter sees the bit clear and does not park.
///
/// **Wake-one or wake-all.** A release clears the bit, whoever still waits. After a wake-all every parked
/// waiter runs again and marks the word anew if it is still owned. After a wake-one the other waiters stay
/// parked, so the woken one holds the wake for all of them: it must either take the word with the waiters
/// bit set (``tryAcquire(by:markingWaiters:)`` with `markingWaiters: true`), so that its own release wakes
/// the next, or pass the wake on with ``wakeOne(parkedAt:)``. A woken waiter that finds the word taken
/// again marks it before parking again, so the new owner's release wakes one.
///
/// Rules: the word must live in an object (a `let`), like ``Lock``. No method keeps the word's address or a closure past the call, so a
/// method of the object that holds the word may declare that it does not let that object escape.
@usableFromInline
package struct OwnerWord: ~Copyable, Sendable {

    /// The owner's ID with the waiters bit, or 0.
    @usableFromInline
    let word = Atomic<UInt>(0)

    /// A free word.
    @inlinable
    package init() {}

    /// The word, acquiring: a caller that reads it free sees everything the last owner did before its
    /// release.
    @inlinable
    var stateAcquiring: UInt {
        word.load(ordering: .acquiring)
    }

    /// The word, relaxed: exact for the owner about itself (only the owner stores its own ID, and only the
    /// owner releases the word), and for a caller whose lock orders every acquire and release of the word; a
    /// parking condition (checked under the bucket's mutex, which the waker takes too).
    @inlinable
    var stateRelaxed: UInt {
        word.load(ordering: .relaxed)
    }

    /// The owner's thread ID (the waiters bit masked off), or 0 when the word is free. Acquiring: a caller
    /// that reads 0 sees everything the last owner did before its release.
    @inlinable
    package var owner: UInt {
        stateAcquiring & ~1
    }

    /// Whether `me`, the calling thread's ``currentThreadID``, owns the word. A relaxed load is exact here:
    /// only the owner stores its own ID, and only the owner releases the word.
    @inlinable
    package borrowing func isOwned(by me: UInt) -> Bool {
        stateRelaxed & ~1 == me
    }

    /// Whether some thread owns the word. Acquiring: a caller that reads `false` sees everything the last
    /// owner did before its release.
    @inlinable
    package var isOwned: Bool {
        stateAcquiring != 0
    }

    /// ``isOwned`` with a relaxed load, for a caller that holds a lock under which every acquire and
    /// release of the word happens: the lock orders what it reads.
    @inlinable
    package var isOwnedRelaxed: Bool {
        stateRelaxed != 0
    }

    /// Takes the word for `me` (a ``currentThreadID``) if it is free; never waits. `markingWaiters`: take
    /// it with the waiters bit set — for a thread woken by a wake-one, behind which others may still be
    /// parked, so that its release wakes the next one. Acquiring: the new owner sees what the previous
    /// one did.
    @inlinable
    package borrowing func tryAcquire(by me: UInt, markingWaiters: Bool = false) -> Bool {
        word.compareExchange(expected: 0, desired: markingWaiters ? me | 1 : me, ordering: .acquiring).exchanged
    }

    /// Frees the word (the owner only) and returns whether a waiter set the waiters bit: then the caller
    /// wakes the waiters' parking address, with ``wakeOne(parkedAt:)`` or ``wakeAll(parkedAt:)``. The
    /// exchange releases what the owner did to whoever acquires the word next or sees it free, and
    /// acquires what the waiters did before marking it.
    @inlinable
    package borrowing func release() -> Bool {
        word.exchange(0, ordering: .acquiringAndReleasing) & 1 != 0
    }

    /// Wakes the longest-parked thread waiting on `address` (after a ``release()`` that found the waiters
    /// bit, or to pass on a wake-one a waiter will not use). Returns whether one was parked.
    @inlinable
    @discardableResult
    package borrowing func wakeOne(parkedAt address: UInt) -> Bool {
        ParkingLot.unparkOne(address)
    }

    /// Wakes every thread waiting on `address` (after a ``release()`` that found the waiters bit).
    @inlinable
    package borrowing func wakeAll(parkedAt address: UInt) {
        ParkingLot.unparkAll(address)
    }

    /// Waits until the word is free, or until this thread is woken by a release: first `spins` loads (an
    /// owner usually holds the word for a few instructions), then it sets the waiters bit and parks on
    /// `address`. Not registered in ``WaitGraph``: the owner must never wait for the waiters.
    ///
    /// - Returns: `false` when it saw the word free without parking; `true` when it parked and a wake on
    ///   `address` ended the wait. Under wake-one, `true` means this thread holds the wake: it takes the
    ///   word with `markingWaiters: true` or passes the wake on (see the type's notes). The word may be
    ///   owned again either way: the caller tries to take it and waits again if that fails.
    @usableFromInline
    package borrowing func waitUntilReleased(parkingAt address: UInt, spinning spins: Int) -> Bool {
        for _ in 0..<spins {
            if stateAcquiring == 0 { return false }
        }
        while true {
            let current = stateAcquiring
            if current == 0 { return false }
            if current & 1 == 0,
                !word.compareExchange(expected: current, desired: current | 1, ordering: .acquiringAndReleasing)
                    .exchanged
            {
                continue
            }
            // The bit was set (by this thread or another waiter): the release of the word as it is now
            // will wake this address. If the word was released (or released and taken again unmarked)
            // meanwhile, the check below fails and the loop looks again.
            var parked = false
            ParkingLot.park(on: address) {
                parked = stateRelaxed & 1 != 0
                return parked
            }
            if parked { return true }
        }
    }
}
