extension SignalConvertible where Value: Sendable {
    /// RAC's `throttle:` is a debounce, not rate limiting: this spelling does not compile, and the message
    /// names the two operators to choose from.
    ///
    /// A RAC user's `throttle(.milliseconds(500), on: scheduler)` means "send the latest value once
    /// the input has been quiet for half a second" (the live search). In Tether that is
    /// ``debounce(_:on:)``; ``throttle(_:latest:on:)`` limits the rate, as Combine's `throttle` does, and
    /// must be asked for with its `latest:` argument.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let query = Subject<String, Never>()
    /// query.debounce(.milliseconds(500), on: scheduler)                 // RAC's throttle:
    /// query.throttle(.milliseconds(500), latest: true, on: scheduler)   // rate limiting
    /// ```
    @available(
        *, unavailable,
        message:
            "RAC's throttle: is a debounce: use debounce(_:on:); for rate limiting (Combine's throttle) write throttle(_:latest:on:) with latest:"
    )
    public func throttle<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<Value, Failure> {
        fatalError("unavailable")
    }
}
