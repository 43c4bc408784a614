import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny lock built on one `Atomic<Bool>`, for Tether's own short critical sections.
///
/// Why not `Synchronization.Mutex`: on Linux its futex-based implementation is invisible to
/// Thread Sanitizer, which then reports races on correct hand-offs (see LINUX-NOTES.md). An atomic
/// compiled in this module is instrumented, so TSan sees the happens-before edges. Unlocking is a
/// plain release store, cheaper than a mutex's read-modify-write.
///
/// Rules: hold it only around a few loads and stores of Tether's own state, never while user code
/// runs, never recursively.
@usableFromInline
package struct SpinLock: ~Copyable, @unchecked Sendable {
    @usableFromInline
    package let state = Atomic<Bool>(false)

    @inlinable
    package init() {}

    @inlinable
    package func lock() {
        if state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            return
        }
        lockSlow()
    }

    @usableFromInline
    package func lockSlow() {
        var spins = 0
        while true {
            if !state.load(ordering: .relaxed),
                state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 {
                sched_yield()
            }
        }
    }

    @inlinable
    package func unlock() {
        state.store(false, ordering: .releasing)
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
    // pthread_t is the address of the thread's control block on Linux: shifting by one keeps it
    // unique and frees bit 0 for flags.
    UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) &<< 1
}
