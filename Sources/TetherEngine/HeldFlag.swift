import Synchronization

/// A one-byte flag that the thread setting it may *hold* while it finishes what setting it began (a
/// `CompositeDisposable`'s disposal: the flag is *disposed*, held while the children are being disposed),
/// with a waiters bit, so that other threads wait (parked, through ``ParkingLot``) until the holder
/// releases it.
///
/// Bits: 1 set, 2 held, 4 waiters. The holder's thread ID is not in the byte: its user keeps it (under its
/// own lock) and passes it to ``waitUntilReleased(by:parkingAt:)``, for ``WaitGraph``.
///
/// **Why a waiter can't miss a wake-up.** A waiter sets the waiters bit with one atomic OR and parks only
/// while it sees the flag held with that bit set, checked under the parking bucket's mutex
/// (``ParkingLot/park(on:while:)``). The holder releases with one exchange, which comes before or after the
/// OR in the byte's modification order: after, it returns the bit and the holder wakes the address — taking
/// that same bucket mutex, so the waiter is either in the queue or sees the flag released; before, the OR
/// returns a flag no longer held and the waiter does not park. (An OR on a flag not held leaves a stray
/// waiters bit, which nothing reads: every check masks it with the held bit, and the next set clears it.)
///
/// Rules: the flag must live in an object (a `let`), like ``Lock``. It is set and cleared only where its
/// user rules out a concurrent set (under its own lock, or holding the only reference), and released only
/// by its holder. No method keeps the flag's address or a closure past the call, so a method of the object
/// that holds the flag may declare that it does not let that object escape.
@usableFromInline
package struct HeldFlag: ~Copyable, Sendable {
    @usableFromInline let bits = Atomic<UInt8>(0)

    /// A flag that is not set.
    @inlinable
    package init() {}

    /// The bits, acquiring: a caller that reads the flag set, or no longer held, sees what was done before
    /// it was set or released.
    @inlinable
    var current: UInt8 { bits.load(ordering: .acquiring) }

    /// Whether the flag is set (acquiring).
    @inlinable
    package var isSet: Bool { current & 1 != 0 }

    /// Whether a thread holds the flag (acquiring: a caller that reads `false` sees everything the holder
    /// did before its release).
    @inlinable
    package var isHeld: Bool { current & 2 != 0 }

    /// Sets the flag; `held`: the calling thread holds it until its ``release()``. A releasing store: only
    /// where no other thread can set, clear or release it (see the type's rules).
    @inlinable
    package func set(held: Bool) {
        store(held ? 3 : 1)
    }

    /// Clears the flag (same rules as ``set(held:)``): its user starts over.
    @inlinable
    package func clear() {
        store(0)
    }

    /// Stores `value` (releasing; see ``set(held:)``).
    @inlinable
    func store(_ value: UInt8) {
        bits.store(value, ordering: .releasing)
    }

    /// Releases the flag (the holder only), leaving it set, and returns whether a waiter set the waiters
    /// bit: then the caller wakes the waiters' parking address with ``wakeAll(parkedAt:)``. The exchange
    /// releases what the holder did to whoever sees the flag released.
    @inlinable
    package func release() -> Bool {
        bits.exchange(1, ordering: .acquiringAndReleasing) & 4 != 0
    }

    /// Wakes every thread waiting on `address` (after a ``release()`` that found the waiters bit).
    @inlinable
    package func wakeAll(parkedAt address: UInt) {
        ParkingLot.unparkAll(address)
    }

    /// Waits until the flag, held by the thread `holder` (not the calling thread), is released, parked on
    /// `address`, for a holder that wakes it with ``wakeAll(parkedAt:)``. The wait is registered in
    /// ``WaitGraph`` as *breakable*: it is not started if it would close a cycle of waits (`holder` waiting,
    /// directly or not, for this thread), and it ends early when a firm wait breaks it (the graph then wakes
    /// `address`).
    ///
    /// - Returns: `true` when the flag was released; `false` when the wait was not started or was broken
    ///   (the holder may still hold it).
    @usableFromInline
    @discardableResult
    package func waitUntilReleased(by holder: UInt, parkingAt address: UInt) -> Bool {
        // Mark the flag before registering the wait: a holder that releases meanwhile is not waited for.
        guard markWaiting() else { return true }
        guard let wait = WaitGraph.shared.begin(waitingFor: holder, breakable: true, parkingAddress: address)
        else { return false }
        defer { WaitGraph.shared.end(wait) }
        while !wait.isBroken {
            guard markWaiting() else { return true }
            ParkingLot.park(on: address) {
                current & 6 == 6 && !wait.isBroken
            }
        }
        return false
    }

    /// Sets the waiters bit; returns whether the flag is still held (acquiring: when it is not, what the
    /// holder did is visible).
    func markWaiting() -> Bool {
        bits.bitwiseOr(4, ordering: .acquiringAndReleasing).oldValue & 2 != 0
    }
}
