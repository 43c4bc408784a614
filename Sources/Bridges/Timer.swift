import Observable

extension Signal where Value == Void, Failure == Never {
    /// Sends one `()` after `delay` on `scheduler`'s clock, then completes (a one-shot timer; the
    /// repeating `Signal.interval(_:on:)` lives in Observable).
    ///
    /// Each subscription starts its own timer; disposing it before it fires cancels the scheduled work.
    /// On a ``QueueScheduler`` the timer is Dispatch's and needs no run loop; in tests use a
    /// ``TestScheduler``.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// Signal.timer(after: .seconds(2), on: scheduler)
    ///     .subscribe(next: { print("ding") }, completed: { print("done") })
    /// scheduler.advance(by: .seconds(2))
    /// // ding
    /// // done
    /// ```
    /// Marble (delay 3): `---()|`
    public static func timer(after delay: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { observer in
            scheduler.schedule(after: delay) {
                observer.send(())
                observer.sendCompleted()
            }
        }
    }
}
