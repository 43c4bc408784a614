import CGio
import Synchronization

/// A Tether `Scheduler` that runs work on a GLib main context — by default the one GTK's main loop (or a
/// daemon's `GMainLoop`) runs, so work scheduled from any thread runs on the loop's thread, between
/// events, as GTK and GIO want.
///
/// Immediate work is an idle-priority-`G_PRIORITY_DEFAULT` source (`g_idle_source_new`); timers are
/// `g_timeout_source_new` sources (millisecond resolution, delays rounded up). Every source carries a
/// destroy notify that releases the work, so cancelled or finished work frees what it captured.
/// Disposing cancels work that has not run (`g_source_destroy`, safe from any thread). The clock is
/// `g_get_monotonic_time`.
///
/// Use it with `deliver(on:)`, `debounce(_:on:)`, `bind(_:to:on:)`… wherever RAC code used
/// `RACScheduler.mainThreadScheduler`.
///
/// ```swift
/// let loop = MainContextScheduler.main
/// let results = Subject<[String], Never>()
/// results.deliver(on: loop).subscribe(next: { print("on the main loop:", $0) })
/// ```
public final class MainContextScheduler: Scheduler, @unchecked Sendable {
    // Safety: a GMainContext is thread-safe (GLib locks it); `context` is never reassigned.
    private let context: OpaquePointer?

    /// The scheduler of the default main context: the one `gtk_init`, `GtkApplication`, a
    /// `g_main_loop_new(nil, …)` loop and `g_main_context_iteration(nil, …)` run, on the main thread.
    ///
    /// ```swift
    /// MainContextScheduler.main.schedule { print("on the main loop") }
    /// ```
    public static let main = MainContextScheduler(context: nil)

    /// A scheduler for `context` (retained); `nil` is the default main context.
    ///
    /// ```swift
    /// let context = g_main_context_new()
    /// let worker = MainContextScheduler(context: context)
    /// g_main_context_unref(context)   // the scheduler keeps its own reference
    /// ```
    public init(context: OpaquePointer?) {
        self.context = context.map { g_main_context_ref($0) }
        // The default context's loop is the main loop: the main queue runs in it (issue 43).
        if context == nil { MainQueueIntegration.install() }
    }

    deinit {
        if let context { g_main_context_unref(context) }
    }

    /// `g_get_monotonic_time` as a duration.
    ///
    /// ```swift
    /// let started = MainContextScheduler.main.now
    /// ```
    public var now: Duration { .microseconds(g_get_monotonic_time()) }

    /// Runs `action` on the context's thread as soon as the loop gets to it (never synchronously, even
    /// when called on that thread); disposing the result first cancels it.
    ///
    /// ```swift
    /// MainContextScheduler.main.schedule { print("soon, on the main loop") }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        attach(g_idle_source_new(), repeating: false, action)
    }

    /// Runs `action` once `delay` has passed (`g_timeout_source_new`, rounded up to a millisecond).
    ///
    /// ```swift
    /// MainContextScheduler.main.schedule(after: .milliseconds(300)) { print("300 ms later") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        attach(g_timeout_source_new(milliseconds(delay)), repeating: false, action)
    }

    /// Runs `action` after `delay`, then every `interval`, until the result is disposed.
    ///
    /// ```swift
    /// let clock = MainContextScheduler.main.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// clock.dispose()
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        let timer = RepeatingTimer()
        let first = makeSource(g_timeout_source_new(milliseconds(delay)), repeating: false) { [self] in
            action()
            let next = self.makeSource(g_timeout_source_new(self.milliseconds(interval)), repeating: true, action)
            timer.replace(with: next)
            next.attach(to: self.context)
        }
        // Recorded before it can fire, so that the repeating source always replaces it, never the reverse.
        timer.replace(with: first)
        first.attach(to: context)
        return timer
    }

    private func milliseconds(_ duration: Duration) -> guint {
        let nanoseconds =
            duration.components.seconds < 0
            ? 0
            : duration.components.seconds * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000
        if nanoseconds <= 0 { return 0 }
        return guint(clamping: (nanoseconds + 999_999) / 1_000_000)
    }

    private func attach(
        _ source: UnsafeMutablePointer<GSource>?, repeating: Bool, _ action: @escaping @Sendable () -> Void
    )
        -> SourceDisposable
    {
        let disposable = makeSource(source, repeating: repeating, action)
        disposable.attach(to: context)
        return disposable
    }

    private func makeSource(
        _ source: UnsafeMutablePointer<GSource>?, repeating: Bool, _ action: @escaping @Sendable () -> Void
    ) -> SourceDisposable {
        let source = source!
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        let work = Unmanaged.passRetained(SourceWork(action, repeating: repeating)).toOpaque()
        g_source_set_callback(
            source,
            { data in
                let work = Unmanaged<SourceWork>.fromOpaque(data!).takeUnretainedValue()
                work.acquire()
                work.action()
                return gboolean(work.repeating ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE)
            }, work,
            { data in Unmanaged<SourceWork>.fromOpaque(data!).release() })
        let disposable = SourceDisposable(source)
        g_source_unref(source)  // the disposable holds it now; the context will too
        return disposable
    }
}

/// The work of one source; released by the source's destroy notify.
///
/// It is created on the scheduling thread and run on the context's thread. GLib's context lock orders the
/// two, but GLib is not built with Thread Sanitizer, so the hand-off is also published with an atomic
/// (release when created, acquire before running) that TSan sees.
private final class SourceWork {
    let action: @Sendable () -> Void
    let repeating: Bool
    private let published = Atomic<Bool>(false)

    init(_ action: @escaping @Sendable () -> Void, repeating: Bool) {
        self.action = action
        self.repeating = repeating
        published.store(true, ordering: .releasing)
    }

    /// Pairs with the release in `init`, on the thread that runs the work.
    func acquire() {
        _ = published.load(ordering: .acquiring)
    }
}

/// Cancels one source; holds a reference to the `GSource` so that destroying it stays valid.
private final class SourceDisposable: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex (held only around GLib calls, never around user code);
    // `g_source_destroy` and `g_source_attach` are thread-safe; `source` is never reassigned.
    private let source: UnsafeMutablePointer<GSource>
    private let state = Locked<(attached: Bool, disposed: Bool)>((false, false))

    init(_ source: UnsafeMutablePointer<GSource>) {
        self.source = source
        g_source_ref(source)
    }

    deinit { g_source_unref(source) }

    /// Attaches the source to `context` (`nil`: the default one), unless it was disposed already.
    func attach(to context: OpaquePointer?) {
        state.withLock { state in
            if state.disposed { return }
            g_source_attach(source, context)
            state.attached = true
        }
    }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    func dispose() {
        let attached: Bool = state.withLock { state in
            if state.disposed { return false }
            state.disposed = true
            return state.attached
        }
        // A source never attached never runs; its work is released when the source is finalized (deinit).
        if attached { g_source_destroy(source) }
    }
}

/// A repeating timer: first a one-shot source for the initial delay, then a repeating one.
private final class RepeatingTimer: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex; disposal happens outside it.
    private let state = Locked<(current: SourceDisposable?, disposed: Bool)>((nil, false))

    var isDisposed: Bool { state.withLock { $0.disposed } }

    func replace(with next: SourceDisposable) {
        let stale: SourceDisposable? = state.withLock { state in
            if state.disposed { return next }
            state.current = next
            return nil
        }
        stale?.dispose()
    }

    func dispose() {
        let current: SourceDisposable? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            return state.current
        }
        current?.dispose()
    }
}
