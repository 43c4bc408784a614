import TetherEngine

/// Something that can be cancelled: a subscription, a scheduled action, an OS resource.
///
/// `dispose()` is idempotent and thread-safe. Disposing a subscription stops delivery: once
/// `dispose()` returns, the subscription's observer receives nothing more, and a callback of it
/// that was running on another thread has returned (called from inside that callback, `dispose()`
/// returns at once). The pipeline's closures and what they captured are released.
///
/// ```swift
/// let subject = Subject<Int, Never>()
/// let subscription = subject.subscribe(next: { print($0) })
/// subject.send(1)            // prints 1
/// subscription.dispose()
/// subject.send(2)            // prints nothing
/// ```
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called (or the subscription has ended).
    var isDisposed: Bool { get }

    /// Cancels the work and releases its resources. Safe to call more than once, from any thread.
    func dispose()
}
