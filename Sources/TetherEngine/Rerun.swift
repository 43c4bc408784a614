/// Runs work serially on request, from any thread: whoever finds it idle runs it on its own thread, and a
/// request made while it runs makes that runner go again once the run returns — so the work runs after
/// every request, never twice at once, and a burst of requests costs one or two runs. Optionally,
/// requests are coalesced: the first one opens a window, and the work runs once when it elapses.
///
/// The rules are ``RerunState``'s; this is their runtime: the state under ``Lock``, the effects (running
/// the work, starting and cancelling a window's timer) outside it. The work never runs under the lock.
///
/// The work is either installed (``install(_:)``, then ``request()`` and ``runNow()``) or given to each
/// ``run(_:)``; in the latter case every request passes the same work, since a request made while the
/// work runs is served by the runner running its own.
@usableFromInline
package final class Rerun: @unchecked Sendable {
    // Safety: `state` and `work` are guarded by `lock`, which is never held while work runs or a timer is
    // started or cancelled; `window` is immutable.

    /// Starts a coalescing window: calls its argument (on any thread) once the window elapses, and returns
    /// what cancels that call.
    package typealias Window = @Sendable (_ elapsed: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// Guards `state` and `work`; held only for a transition, never while work runs.
    private let lock = Lock()
    /// The rules' state; a window's timer is the closure that cancels it.
    private var state = RerunState<@Sendable () -> Void>()
    /// The installed work; released by ``dispose()`` (it usually captures the owner of this object).
    private var work: @Sendable () -> Void = {}
    /// Starts a coalescing window for ``request()``; `nil`: requests run at once.
    private let window: Window?

    /// Work run at once on request, serially (``run(_:)``).
    @usableFromInline
    package convenience init() {
        self.init(window: nil)
    }

    /// Work run on request: at once, or, with `window`, once per window after the first request.
    package init(window: Window?) {
        self.window = window
    }

    /// Sets the work ``request()`` and ``runNow()`` run (before the first request; ignored after
    /// ``dispose()``).
    package func install(_ work: @escaping @Sendable () -> Void) {
        let replaced = lock.withLock { () -> @Sendable () -> Void in
            if state.isDisposed { return work }
            defer { self.work = work }
            return self.work
        }
        _ = replaced  // released after the lock: it holds user values
    }

    /// Asks for the installed work: at once (as ``runNow()``), or, with a window, at the end of the open
    /// window (opening one if none is).
    package func request() {
        guard let window else { return runNow() }
        guard case .startWindow(let number) = lock.withLock({ state.requestInWindow() }) else { return }
        let cancel = window { [self] in
            let (request, work) = lock.withLock { (state.windowElapsed(number), self.work) }
            if request == .run { loop(work) }
        }
        if case .cancel(let cancel) = lock.withLock({ state.windowStarted(number, timer: cancel) }) {
            cancel()
        }
    }

    /// Runs the installed work on this thread now, or, if it is running, makes its runner go again (the
    /// open window, if any, still ends with a run).
    package func runNow() {
        let (request, work) = lock.withLock { (state.request(), self.work) }
        if request == .run { loop(work) }
    }

    /// Runs `work` on this thread now, or, if a run is going on, makes its runner run its own work again.
    @usableFromInline
    package func run(_ work: () -> Void) {
        if lock.withLock({ state.request() }) == .run { loop(work) }
    }

    /// The runner's loop: runs `work`, then asks the state whether a request came meanwhile.
    private func loop(_ work: () -> Void) {
        repeat {
            work()
        } while lock.withLock({ state.runEnded() }) == .runAgain
    }

    /// Stops: no run starts after this returns, except by a runner already given its run (it ends that run
    /// and does not go again); the open window's timer is cancelled and the installed work released.
    package func dispose() {
        let (timer, work) = lock.withLock { () -> ((@Sendable () -> Void)?, @Sendable () -> Void) in
            defer { self.work = {} }
            return (state.dispose(), self.work)
        }
        timer?()
        _ = work  // released after the lock: it holds user values
    }
}
