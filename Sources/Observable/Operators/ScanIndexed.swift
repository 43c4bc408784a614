extension SignalConvertible {
    /// Like ``scan(_:_:)``, but `next` also receives the index of the value: `0` for the first value
    /// of each subscription, then `1`, `2`, … (RAC's `scanWithStart:reduceWithIndex:`).
    ///
    /// Every intermediate result is sent. Accumulation and indices start anew for each subscription.
    ///
    /// ```swift
    /// Signal(values: ["a", "b", "c"]).scan("", indexed: { running, letter, index in
    ///     running + letter + String(index)
    /// })
    /// // "a0", "a0b1", "a0b1c2"
    /// ```
    /// Marble (sum of value × index): `-1-2-3-|` → `-0-2-8-|`
    @inlinable
    public func scan<Result>(
        _ initial: Result, indexed next: @escaping @Sendable (Result, Value, Int) -> Result
    ) -> Signal<Result, Failure> {
        let upstream = signal
        return Signal.uncheckedDeferred {
            // One counter per subscription; the source's values arrive serialized.
            var index = 0
            return upstream.uncheckedScan(initial) { running, value in
                defer { index += 1 }
                return next(running, value, index)
            }
        }
    }
}
