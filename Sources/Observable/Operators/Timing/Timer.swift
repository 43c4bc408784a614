import TetherEngine

#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date only: the core stays off full Foundation where the toolchain splits it
#else
    import Foundation
#endif

extension Signal where Value == Int, Failure == Never {
    /// Sends `0`, `1`, `2`, … every `period` on `scheduler`, starting one period after subscription
    /// (RAC's `+interval:onScheduler:`, which sends dates; Tether sends tick numbers).
    ///
    /// Runs until disposed. Each subscription has its own timer and counts from zero. Periods shorter
    /// than a nanosecond are treated as one nanosecond. ``ImmediateScheduler`` cannot repeat without
    /// blocking forever, so there the signal sends `0` once after blocking for `period` (RAC forbids
    /// the immediate scheduler here); use ``QueueScheduler`` or ``TestScheduler``.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// Signal.interval(.seconds(1), on: scheduler).subscribe(next: { print($0) })
    /// scheduler.advance(by: .seconds(3))   // prints 0, 1, 2 — at 1, 2 and 3 s
    /// ```
    /// Marble (one dash per period): `` → `-0-1-2-3-…`
    @inlinable
    public static func interval<S: Scheduler>(_ period: Duration, on scheduler: S) -> Signal<Int, Never> {
        let period = max(period, .nanoseconds(1))
        return Signal(unsafeStart: { sink, lifetime in
            var tick = 0
            let mailbox = Mailbox<Void>(lifetime: lifetime) { _ in
                let current = tick
                tick &+= 1
                sink.send(.next(current))
            }
            lifetime.add(scheduler.schedule(after: period, interval: period) { mailbox.post(()) })
        })
    }
}

extension Signal where Value == Void, Failure == Never {
    /// Sends one `()` after `delay` on `scheduler`'s clock, then completes (a one-shot timer; the
    /// repeating one is ``Signal/interval(_:on:)``).
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

extension Signal where Value == Date, Failure == Never {
    /// Sends the current `Date` every `period` on `scheduler`, starting one period after subscription
    /// (RAC's `+interval:onScheduler:withLeeway:`). ``Signal/interval(_:on:)`` sends tick numbers instead.
    ///
    /// Each value is the wall-clock `Date()` when the timer fires, also under ``TestScheduler``, whose
    /// virtual time does not move `Date()`. Runs until disposed; each subscription has its own timer.
    /// `leeway` is a hint for how late a tick may fire: the ``Scheduler`` protocol has no leeway, so the
    /// current schedulers ignore it (``QueueScheduler``'s timers use none).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// Signal.interval(.seconds(1), on: scheduler, leeway: .milliseconds(100))
    ///     .subscribe(next: { (date: Date) in print(date) })
    /// scheduler.advance(by: .seconds(2))   // (two dates: at 1 s and at 2 s)
    /// ```
    /// Marble (one dash per period): `` → `-d-d-d-…`
    public static func interval<S: Scheduler>(
        _ period: Duration, on scheduler: S, leeway: Duration
    ) -> Signal<Date, Never> {
        Signal<Int, Never>.interval(period, on: scheduler).map { _ in Date() }
    }
}
