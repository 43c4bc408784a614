import TetherEngine

extension SignalConvertible {
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

extension SignalConvertible {
    /// Prints every event as it passes, prefixed with `prefix` (RAC's `logAll`), and forwards it
    /// unchanged.
    ///
    /// Lines look like `prefix next(1)`, `prefix error(boom)`, `prefix completed` (just the event
    /// when `prefix` is empty). Pass `output` to send the lines elsewhere (a logger, a test).
    ///
    /// ```swift
    /// Signal(values: [1, 2]).log("numbers").subscribe()
    /// // numbers next(1)
    /// // numbers next(2)
    /// // numbers completed
    /// ```
    /// Marble: `-1-|` → `-1-|` (printing `next(1)`, `completed`)
    @inlinable
    public func log(
        _ prefix: String = "", to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    output(prefix.isEmpty ? "\(event)" : "\(prefix) \(event)")
                    sink.send(event)
                }, in: lifetime)
        })
    }
}
