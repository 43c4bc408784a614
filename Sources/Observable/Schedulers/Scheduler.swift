import TetherEngine

/// Where and when work runs (RAC's `RACScheduler`). Time is `Swift.Duration`.
///
/// Implementations: ``ImmediateScheduler`` (now, on the calling thread), ``QueueScheduler``
/// (a Dispatch queue; `.main` for the main queue) and ``TestScheduler`` (virtual time for tests).
///
/// ```swift
/// let background = QueueScheduler(priority: .background)
/// background.schedule { print("on a background queue") }
/// background.schedule(after: .milliseconds(500)) { print("half a second later") }
/// ```
public protocol Scheduler: AnyObject, Sendable {
    /// The scheduler's clock: time elapsed since a fixed origin of this scheduler
    /// (its creation for ``TestScheduler``, boot for the Dispatch-based ones).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let started = scheduler.now
    /// ```
    var now: Duration { get }

    /// Runs `action` as soon as possible. Disposing the result before it runs cancels it.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.schedule { print("soon") }
    /// ```
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` once `delay` has passed on this scheduler's clock.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.schedule(after: .seconds(1)) { print("a second later") }
    /// ```
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` after `delay`, then every `interval`, until the result is disposed.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let ticking = scheduler.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// ```
    @discardableResult
    func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
}

extension Duration {
    /// The duration in nanoseconds, saturating at `Int64`'s range and never negative.
    @usableFromInline
    package var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        if seconds >= Int64.max / 1_000_000_000 - 1 { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
