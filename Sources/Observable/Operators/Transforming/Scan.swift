import TetherEngine

extension SignalConvertible {
    /// Sends each value together with the value before it; the first value is paired with
    /// `initial` (RAC's `combinePreviousWithStart:reduce:`; reduce the pairs with `map`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).combinePrevious(0).map { $1 - $0 }.subscribe(next: { print($0) })   // 1, 1, 1
    /// ```
    /// Marble: `-1-2-3-|` with `0` → `-(0,1)-(1,2)-(2,3)-|`
    @inlinable
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            var previous = initial
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        let pair = (previous, value)
                        previous = value
                        sink.send(.next(pair))
                    case .error(let failure):
                        sink.send(.error(failure))
                    case .completed:
                        sink.send(.completed)
                    }
                }, in: lifetime)
        })
    }

    /// Like ``scan(_:_:)``, but `next` also receives the index of the value: `0` for the first value
    /// of each subscription, then `1`, `2`, … (RAC's `scanWithStart:reduceWithIndex:`).
    ///
    /// Every intermediate result is sent. Accumulation and indices start anew for each subscription.
    ///
    /// ```swift
    /// Signal(values: ["a", "b", "c"]).scan("", indexed: { running, letter, index in
    ///     running + letter + String(index)
    /// }).subscribe(next: { print($0) })
    /// // a0, a0b1, a0b1c2
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

    /// Sends a running accumulation: each value is combined with the previous result, and every
    /// intermediate result is sent (RAC's `scanWithStart:reduce:`).
    ///
    /// The accumulation starts from `initial` anew for each subscription.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).scan(0, +).subscribe(next: { print($0) })   // 1, 3, 6
    /// ```
    /// Marble: `-1-2-3-|` → `-1-3-6-|`
    @inlinable
    public func scan<Result>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        uncheckedScan(initial, next)
    }

    /// `scan(_:_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package func uncheckedScan<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result, function: StaticString = #function
    ) -> Signal<Result, Failure> {
        let upstream = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let running = StateBox(initial)
                upstream.start(
                    Sink { event in
                        switch event {
                        case .next(let value):
                            running.value = next(running.value, value)
                            sink.send(.next(running.value))
                        case .error(let failure): sink.send(.error(failure))
                        case .completed: sink.send(.completed)
                        }
                    }, in: lifetime)
            })
    }
}
