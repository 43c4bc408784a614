import TetherEngine

extension Scheduler {
    /// Runs `action` on this scheduler, and again each time it calls the `reschedule` closure it is given
    /// (RAC's `-scheduleRecursiveBlock:`).
    ///
    /// As in RAC 2.5: calls to `reschedule` made while `action` runs are counted and scheduled once it has
    /// returned — one run per call, so the stack never grows however long the recursion goes; a call made
    /// later (from a callback `action` left behind) schedules at once. Disposing the result cancels the
    /// run that is waiting and every later one; a `reschedule` after that does nothing. On
    /// ``ImmediateScheduler`` the runs happen in a loop before `scheduleRecursive` returns (as RAC's
    /// immediate scheduler does), and a `reschedule` after that loop does nothing.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let countdown = MutableProperty(3)
    /// scheduler.scheduleRecursive { reschedule in
    ///     countdown.value -= 1
    ///     print(countdown.value)       // 2, 1, 0 — one line per run
    ///     if countdown.value > 0 { reschedule() }
    /// }
    /// scheduler.run()
    /// ```
    /// - Returns: a disposable that cancels the recursion.
    @discardableResult
    public func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Disposable {
        if self is ImmediateScheduler {
            return RecursiveSchedule.loop(action)
        }
        let recursion = RecursiveSchedule(scheduler: self, action: action)
        recursion.scheduleNext()
        return recursion.disposable
    }
}

/// The state of one ``Scheduler/scheduleRecursive(_:)`` call: the scheduler, the action, and the
/// disposable that holds the pending run.
final class RecursiveSchedule: Sendable {
    let scheduler: any Scheduler
    let action: @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    let disposable = CompositeDisposable()

    init(scheduler: any Scheduler, action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    /// Schedules one run; the run's scheduled action stays in `disposable` until it starts.
    func scheduleNext() {
        let pending = SerialDisposable()
        guard let key = disposable.add(pending) else { return }
        pending.inner = scheduler.schedule { [self] in
            disposable.remove(key)
            run()
        }
    }

    private func run() {
        if disposable.isDisposed { return }
        let calls = RescheduleCalls()
        action { [self] in
            if calls.countOrPassThrough() && !disposable.isDisposed { scheduleNext() }
        }
        for _ in 0..<calls.finish() {
            scheduleNext()
        }
    }

    /// RAC's immediate scheduler: the runs happen in a loop, one for each `reschedule` made by the run
    /// before.
    static func loop(_ action: @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void) -> any Disposable {
        let calls = RescheduleCalls()
        var remaining = 1
        while remaining > 0 {
            remaining -= 1
            action { _ = calls.countOrPassThrough() }
            remaining += calls.take()
        }
        _ = calls.finish()
        return DisposedDisposable.shared
    }
}

/// Counts the `reschedule` calls made while a run is in progress; after it (`finish()`), calls pass
/// through to be scheduled at once.
private struct RescheduleCalls: Sendable {
    /// The count of calls while running; `-1` once the run has returned.
    private let state = LockedState(0)

    /// Counts a call made during the run and returns `false`; after the run, returns `true`.
    func countOrPassThrough() -> Bool {
        state.withLock { count in
            if count < 0 { return true }
            count += 1
            return false
        }
    }

    /// Takes the calls counted so far (the run goes on counting).
    func take() -> Int {
        state.withLock { count in
            defer { count = 0 }
            return count
        }
    }

    /// Ends the run: returns the calls counted during it; later calls pass through.
    func finish() -> Int {
        state.withLock { count in
            defer { count = -1 }
            return max(count, 0)
        }
    }
}
