import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs work at once on the calling thread (RAC's `+[RACScheduler immediateScheduler]`).
///
/// Delayed work blocks the calling thread until it is due, as in RAC; repeated work is not supported
/// by blocking and runs only its first occurrence. Prefer ``QueueScheduler`` or ``TestScheduler``
/// for anything involving time.
///
/// ```swift
/// ImmediateScheduler.shared.schedule { print("right now") }
/// ```
public final class ImmediateScheduler: Scheduler {
    /// The shared immediate scheduler.
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// signal.deliver(on: ImmediateScheduler.shared)
    /// ```
    public static let shared = ImmediateScheduler()

    /// Creates an immediate scheduler (all instances behave the same).
    ///
    /// ```swift
    /// let immediate = ImmediateScheduler()
    /// ```
    public init() {}

    /// Monotonic time since boot.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.now
    /// ```
    public var now: Duration { monotonicNow() }

    /// Runs `action` before returning.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.schedule { print("now") }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return DisposedDisposable.shared
    }

    /// Sleeps for `delay`, then runs `action`.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.schedule(after: .milliseconds(10)) { print("later") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        sleep(for: delay)
        action()
        return DisposedDisposable.shared
    }

    /// Sleeps for `delay` and runs `action` once: an immediate scheduler cannot repeat without
    /// blocking its caller forever.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.schedule(after: .zero, interval: .seconds(1)) { print("once") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        schedule(after: delay, action)
    }

    private func sleep(for delay: Duration) {
        let nanoseconds = delay.clampedNanoseconds
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}

/// Monotonic time since an arbitrary origin (boot).
@usableFromInline
func monotonicNow() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
}
