#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date only: the core stays off full Foundation where the toolchain splits it
#else
    import Foundation
#endif

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
    /// scheduler.advance(by: .seconds(2))   // two dates: at 1 s and at 2 s
    /// ```
    /// Marble (one dash per period): `` → `-d-d-d-…`
    public static func interval<S: Scheduler>(
        _ period: Duration, on scheduler: S, leeway: Duration
    ) -> Signal<Date, Never> {
        Signal<Int, Never>.interval(period, on: scheduler).map { _ in Date() }
    }
}
