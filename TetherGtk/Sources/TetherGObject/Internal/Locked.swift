import Foundation

/// TetherGObject's, TetherGio's and TetherGtk's one lock around a value: a pthread mutex (`NSLock`), whose acquire and
/// release Thread Sanitizer sees.
///
/// Not `Synchronization.Mutex`: on Linux it waits on a futex inside the uninstrumented standard library,
/// so TSan sees no ordering between two threads that took it in turn and reports the state it guards as
/// raced (a `MainThreadWriter` count did, in CI). Hold it only around a few loads and stores, never while
/// GLib or user code runs.
///
/// <!-- example: skip -->
/// ```swift
/// let state = Locked((subscriptionID: guint(0), disposed: false))
/// let wasDisposed = state.withLock { state in
///     defer { state.disposed = true }
///     return state.disposed
/// }
/// ```
///
/// The tests use it too, for what their closures on other threads record (`load()`, `store(_:)`,
/// `modify(_:)`).
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safety: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; returns what `body` returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value, read under the lock.
    package func load() -> Value { withLock { $0 } }

    /// Replaces the value under the lock.
    package func store(_ newValue: Value) { withLock { $0 = newValue } }

    /// Changes the value under the lock.
    package func modify(_ change: (inout Value) -> Void) { withLock { change(&$0) } }
}
