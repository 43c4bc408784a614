import Synchronization
import TetherShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one lock: a word that parks waiting threads (through ``ParkingLot``) instead of spinning.
///
/// Uncontended, locking is one compare-and-swap and unlocking one exchange, with no allocation: a lock
/// is 4 bytes inside its owner. A contended `lock()` retries a few times, then parks in the kernel, and
/// `unlock()` wakes one parked thread — so a lock stays cheap when threads outnumber cores. It is built
/// on an `Atomic` compiled in this module, so Thread Sanitizer sees its acquire/release edges (it does
/// not see the futex inside `Synchronization.Mutex` on Linux; see <doc:LinuxNotes>).
///
/// States: 0 unlocked, 1 locked, 2 locked with (possibly) parked waiters.
///
/// Rules: hold it only around a few loads and stores of Tether's own state — never while user code
/// runs, never recursively. It must live in an object (its address is its identity while parked).
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
    // Safety: all state is one atomic word.
    @usableFromInline
    let state = Atomic<UInt32>(0)

    @inlinable
    package init() {}

    @inlinable
    package func lock() {
        if tryLock() { return }
        lockSlow()
    }

    /// Takes the lock if it is free; never waits. Acquiring: the new holder sees what the last one did
    /// before its unlock.
    @inlinable
    package func tryLock() -> Bool {
        state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// The state (0: free, 1: held, 2: held with threads parked), relaxed: a look before a compare-and-swap,
    /// and the parking condition (checked under the bucket's mutex, which the unlock's wake takes too).
    @inlinable
    var stateRelaxed: UInt32 {
        state.load(ordering: .relaxed)
    }

    @usableFromInline
    package func lockSlow() {
        // A short bounded retry: most critical sections here are a few stores long.
        for _ in 0..<16 {
            if stateRelaxed == 0, tryLock() { return }
        }
        // Taking it with state 2 makes the eventual unlock wake the next parked thread.
        while state.exchange(2, ordering: .acquiring) != 0 {
            ParkingLot.park(on: address) { stateRelaxed == 2 }
        }
    }

    /// Releases the lock, waking one parked waiter if there is one.
    ///
    /// An exchange, not a plain release store, for two reasons: it tells whether a waiter parked, and it
    /// keeps the optimizer from sinking the retain of a reference read under the lock below the unlock.
    /// A plain release store allows that sinking: a getter such as `SerialDisposable.inner`'s would then
    /// retain after the unlock, racing with a setter that releases the old value (a use-after-free).
    @inlinable
    package func unlock() {
        if state.exchange(0, ordering: .releasing) == 2 {
            unlockSlow()
        }
    }

    @usableFromInline
    package func unlockSlow() {
        ParkingLot.unparkOne(address)
    }

    @usableFromInline
    var address: UInt {
        withUnsafePointer(to: self) { UInt(bitPattern: $0) }
    }

    @inlinable
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A number that identifies the calling thread, never zero, with its lowest bit clear.
@inlinable
package var currentThreadID: UInt {
    // The address of a thread-local of the calling thread (see `tether_thread_id()`): unique among the running
    // threads, like `pthread_self()`, without its call into libc; aligned, so bit 0 is free for flags.
    UInt(tether_thread_id())
}
