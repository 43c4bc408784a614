/// The state of serial work run on request, as a value: whether it runs, whether a request came while it
/// ran, whether a coalescing window is open, whether it was disposed. Whoever finds the work idle runs it;
/// a request made while it runs makes that runner go again once the run returns. Optionally, requests are
/// coalesced: the first one opens a window (a timer), and when the window elapses the work runs once for
/// every request made in it.
///
/// Its transitions are pure — each returns what the caller must do (run the work now, nothing, go again,
/// start or cancel a window's timer) — so the rules are read and tested here without threads
/// (`RerunStateExplorationTests` walks every interleaving of small cases); the runtime, ``Rerun``, applies
/// them under its lock and runs the work, starts and cancels timers with no lock held.
///
/// Invariants (checked by the exploration, in every reachable state):
///
/// - **One run at a time.** Only ``request()`` and ``windowElapsed(_:)`` from idle (``Request/run``) and
///   ``runEnded()`` while running (``AfterRun/runAgain``) hand out a run, and each hands it to the one
///   caller that holds the running state until it calls ``runEnded()``: work never runs twice at once.
/// - **No request is lost.** A request made while the work runs (``Request/runnerGoesAgain``) makes the
///   runner's ``runEnded()`` answer ``AfterRun/runAgain``, so a run starts after every request — unless
///   ``dispose()`` came first.
/// - **Dispose stops.** After ``dispose()`` no transition hands out a run: the only run that may still start
///   is the one the runner had already been given (it holds the running state; its ``runEnded()`` then
///   answers ``AfterRun/stop``). A window's timer is cancelled: ``dispose()`` returns it, or
///   ``windowStarted(_:timer:)`` does when the timer was still being started.
/// - **Coalescing.** At most one window is open at a time; requests made in it open none
///   (``WindowRequest/coalesced``), and its end (``windowElapsed(_:)``) is one request: the work runs once
///   for them all. A window's number tells its timer from an earlier window's, so a timer whose window
///   already elapsed is never kept as the open window's.
///
/// The work itself is not held here: the runtime keeps it, and runs it with no lock held.
package struct RerunState<Timer> {
    /// The runner's part: idle, or running (and asked to go again).
    fileprivate enum Runner: Hashable {
        case idle
        /// A caller holds the run; `again`: a request came since its run was handed out.
        case running(again: Bool)
    }

    /// The coalescing window.
    fileprivate enum Window {
        case closed
        /// Window `number` was opened; its timer is being started (outside the lock).
        case starting(number: Int)
        /// Window `number` is open; `timer` ends it.
        case open(number: Int, timer: Timer)
    }

    /// Who holds the run.
    private var runner = Runner.idle
    /// The coalescing window, closed for good once disposed.
    private var window = Window.closed
    /// The number of the last window opened (windows are numbered from 1).
    private var windowsOpened = 0
    /// ``dispose()`` was called.
    package private(set) var isDisposed = false

    /// Idle, no window open, not disposed.
    package init() {}

    /// Whether a caller holds the run (it runs the work, or is about to, or is asking whether to go again).
    package var isRunning: Bool { runner != .idle }

    /// Whether the runner will go again: a request came while it ran.
    package var runsAgain: Bool { runner == .running(again: true) }

    /// The window open or being opened, if any.
    package var openWindow: Int? {
        switch window {
        case .closed: nil
        case .starting(let number), .open(let number, _): number
        }
    }

    /// What a request tells its caller.
    package enum Request: Hashable {
        /// The work was idle: the caller runs it now, then calls ``runEnded()``.
        case run
        /// The work is running: its runner goes again once the run returns. Nothing to do.
        case runnerGoesAgain
        /// Disposed: nothing to do.
        case disposed
    }

    /// What the runner does once a run returned.
    package enum AfterRun: Hashable {
        /// A request came meanwhile: run the work again (then call ``runEnded()`` again).
        case runAgain
        /// Nothing came, or disposed: the work is idle, stop.
        case stop
    }

    /// What a request to run at the end of a window tells its caller.
    package enum WindowRequest: Hashable {
        /// No window was open: start a timer for window `number` (outside the lock), tell it to the state
        /// with ``windowStarted(_:timer:)``, and call ``windowElapsed(_:)`` with `number` when it fires.
        case startWindow(number: Int)
        /// A window is open: the request is part of its run. Nothing to do.
        case coalesced
        /// Disposed: nothing to do.
        case disposed
    }

    /// What to do with a window's timer once it is started.
    package enum TimerStarted {
        /// Kept as the open window's (``dispose()`` will return it).
        case kept
        /// The window already elapsed (the timer fired before it was told here): nothing to do.
        case elapsed
        /// Disposed meanwhile: cancel the timer.
        case cancel(Timer)
    }

    /// Asks for a run now.
    package mutating func request() -> Request {
        if isDisposed { return .disposed }
        switch runner {
        case .idle:
            runner = .running(again: false)
            return .run
        case .running:
            runner = .running(again: true)
            return .runnerGoesAgain
        }
    }

    /// The run handed out by ``request()``, ``windowElapsed(_:)`` or ``runEnded()`` returned: whether to go
    /// again.
    package mutating func runEnded() -> AfterRun {
        guard case .running(let again) = runner else { preconditionFailure("RerunState: a run ended while idle") }
        if again && !isDisposed {
            runner = .running(again: false)
            return .runAgain
        }
        runner = .idle
        return .stop
    }

    /// Asks for a run at the end of the window (opening one if none is open).
    package mutating func requestInWindow() -> WindowRequest {
        if isDisposed { return .disposed }
        guard case .closed = window else { return .coalesced }
        windowsOpened += 1
        window = .starting(number: windowsOpened)
        return .startWindow(number: windowsOpened)
    }

    /// The timer of window `number` (from ``WindowRequest/startWindow(number:)``) is started.
    package mutating func windowStarted(_ number: Int, timer: Timer) -> TimerStarted {
        if case .starting(number) = window {
            window = .open(number: number, timer: timer)
            return .kept
        }
        return isDisposed ? .cancel(timer) : .elapsed
    }

    /// The timer of window `number` fired: the window closes, and its requests make one request now.
    package mutating func windowElapsed(_ number: Int) -> Request {
        switch window {
        case .starting(number), .open(number, _):
            window = .closed
        default:
            // Its window was closed by dispose (a window elapses once, and none opens after dispose).
            precondition(isDisposed, "RerunState: window \(number) elapsed but is not open")
            return .disposed
        }
        return request()
    }

    /// Stops: no run is handed out from now on, and the open window's timer (if started) is returned, to be
    /// cancelled after unlocking. A runner already running finishes its run and stops.
    package mutating func dispose() -> Timer? {
        isDisposed = true
        if case .running = runner { runner = .running(again: false) }
        defer { window = .closed }
        if case .open(_, let timer) = window { return timer }
        return nil
    }
}

extension RerunState.Window: Equatable where Timer: Equatable {}
extension RerunState.Window: Hashable where Timer: Hashable {}
extension RerunState.TimerStarted: Equatable where Timer: Equatable {}
extension RerunState: Equatable where Timer: Equatable {}
extension RerunState: Hashable where Timer: Hashable {}
