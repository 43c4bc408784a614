import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Bridges module's lock: one `Atomic<Bool>`, like the core's `SpinLock` (which is internal to
/// Observable), so Thread Sanitizer sees its happens-before edges (see LINUX-NOTES.md on `Mutex`).
///
/// Rules: hold it around a few loads and stores (or one short system call), never while user code runs,
/// never recursively.
final class BridgeLock: @unchecked Sendable {
    // Safety: the only state is the atomic flag.
    private let state = Atomic<Bool>(false)

    init() {}

    func lock() {
        var spins = 0
        while !state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
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

/// Carries a value that is not `Sendable` across a thread hop the bridge controls (a notification handed
/// to a scheduler, a Dispatch source). Say why at each use site.
struct BridgeUnchecked<Wrapped>: @unchecked Sendable {
    var value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}

/// A weak reference that can be captured by `@Sendable` closures.
final class WeakReference: @unchecked Sendable {
    // Safety: a `weak let` is read atomically by the runtime and never reassigned.
    weak let object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
