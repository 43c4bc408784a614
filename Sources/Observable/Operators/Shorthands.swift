extension SignalConvertible {
    /// Replaces every value with `value` (RAC's `mapReplace:`). Errors and completion pass through.
    ///
    /// ```swift
    /// let taps = Subject<Void, Never>()
    /// let increments = taps.map(to: 1)   // 1 for each tap
    /// ```
    /// Marble: `-a-b-|` → `-x-x-|`  (map(to: x))
    @inlinable
    @_disfavoredOverload  // so that a trailing closure (`map { … }`) never matches `to:` with a closure value
    public func map<NewValue>(to value: NewValue) -> Signal<NewValue, Failure> {
        uncheckedMap { _ in value }
    }

    /// Sends values until `predicate` returns `true` for one; that value is not sent, the result
    /// completes and the subscription to the source ends (RAC's `takeUntilBlock:`). The opposite of
    /// ``take(while:)``; named apart from ``take(until:)``, which takes a trigger signal.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).take(untilTrue: { $0 > 3 })   // 1, 2, then completes
    /// ```
    /// Marble: `-1-2-5-1-|` → `-1-2-|`
    @inlinable
    public func take(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        take(while: { !predicate($0) })
    }

    /// Drops values until `predicate` returns `true` for one; from that value on, sends every
    /// value (RAC's `skipUntilBlock:`). The opposite of ``skip(while:)``.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).skip(untilTrue: { $0 > 3 })   // 5, 1
    /// ```
    /// Marble: `-1-2-5-1-|` → `-----5-1-|`
    @inlinable
    public func skip(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        skip(while: { !predicate($0) })
    }

    /// Prints each value as it passes, in the format of ``log(_:to:)`` (`prefix next(1)`), and
    /// forwards every event unchanged (RAC's `logNext`).
    ///
    /// ```swift
    /// Signal(values: [1, 2]).logNext("numbers").subscribe()
    /// // numbers next(1)
    /// // numbers next(2)
    /// ```
    /// Marble: `-1-|` → `-1-|` (printing `next(1)`)
    @inlinable
    public func logNext(
        _ prefix: String = "", to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal<Value, Failure> {
        doNext { value in output(logLine(prefix, Event<Value, Failure>.next(value))) }
    }

    /// Prints the error as it passes, in the format of ``log(_:to:)`` (`prefix error(…)`), and
    /// forwards every event unchanged (RAC's `logError`).
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// Signal<Int, IOError>(error: .closed).logError("download").subscribe()
    /// // download error(closed)
    /// ```
    /// Marble: `-1-X` → `-1-X` (printing `error(X)`)
    @inlinable
    public func logError(
        _ prefix: String = "", to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal<Value, Failure> {
        doError { failure in output(logLine(prefix, Event<Value, Failure>.error(failure))) }
    }

    /// Prints completion as it passes, in the format of ``log(_:to:)`` (`prefix completed`), and
    /// forwards every event unchanged (RAC's `logCompleted`).
    ///
    /// ```swift
    /// Signal(values: [1, 2]).logCompleted("numbers").subscribe()
    /// // numbers completed
    /// ```
    /// Marble: `-1-|` → `-1-|` (printing `completed`)
    @inlinable
    public func logCompleted(
        _ prefix: String = "", to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal<Value, Failure> {
        doCompleted { output(logLine(prefix, Event<Value, Failure>.completed)) }
    }
}

/// One line of `log`, `logNext`, `logError` and `logCompleted`: the event, after `prefix` if any.
@inlinable
func logLine<Value, Failure>(_ prefix: String, _ event: Event<Value, Failure>) -> String {
    prefix.isEmpty ? "\(event)" : "\(prefix) \(event)"
}

extension Signal {
    /// Sends the events of each of `signals` in order: each is subscribed only once the one
    /// before it has completed (RAC's `+concat:`).
    ///
    /// The first error is sent and ends the result (later signals are never subscribed). **No
    /// signals: completes at once.** The sequence is read once, when this signal is created.
    /// Signals that complete synchronously are chained in a loop, so the stack does not grow with
    /// their number.
    ///
    /// ```swift
    /// let pages = [Signal(values: [1, 2]), Signal(values: [3])]
    /// Signal.concat(pages).subscribe(next: { print($0) })   // 1 2 3
    /// ```
    /// Marble: `a: -1-|`, `b: -2-|` → `-1--2-|`
    @inlinable
    public static func concat<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal
    where Signals.Element: SignalConvertible, Signals.Element.Value == Value, Signals.Element.Failure == Failure {
        Signal<Signal, Failure>(values: signals.map(\.signal)).concat()
    }
}
