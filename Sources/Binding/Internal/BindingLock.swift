import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny lock on one `Atomic<Bool>` for the Binding module's own short critical sections.
///
/// The same design as the core's internal `SpinLock` (which this module cannot see): an atomic compiled
/// here is visible to Thread Sanitizer, unlike `Synchronization.Mutex` on Linux (see LINUX-NOTES.md).
/// Hold it only around a few loads and stores, never while user code runs, never recursively.
struct BindingLock: ~Copyable, @unchecked Sendable {
    private let state = Atomic<Bool>(false)

    init() {}

    func lock() {
        var spins = 0
        while true {
            if !state.load(ordering: .relaxed),
                state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    func unlock() {
        state.store(false, ordering: .releasing)
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
