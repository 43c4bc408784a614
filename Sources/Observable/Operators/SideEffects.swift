extension SignalConvertible {
    /// Runs `action` with each value just before the value is sent on (RAC's `doNext:`).
    ///
    /// ```swift
    /// let send: @Sendable (String) -> Signal<Int, Never> = { _ in Signal(value: 200) }
    /// let requests = Subject<String, Never>()
    /// requests.doNext { print("sending", $0) }.flatMap { send($0) }
    /// ```
    /// Marble: `-1-2-|` → `-1-2-|` (calling `action(1)`, `action(2)`)
    @inlinable
    public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .next(let value) = event { action(value) }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Runs `action` with the error just before the error is sent on (RAC's `doError:`).
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let download = Signal<Data, IOError>.empty
    /// download.doError { print("failed:", $0) }
    /// ```
    /// Marble: `-1-X` → `-1-X` (calling `action(X)`)
    @inlinable
    public func doError(_ action: @escaping @Sendable (Failure) -> Void) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .error(let failure) = event { action(failure) }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Runs `action` just before completion is sent on (RAC's `doCompleted:`).
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let upload = Signal<Void, IOError>.empty
    /// upload.doCompleted { print("uploaded") }
    /// ```
    /// Marble: `-1-|` → `-1-|` (calling `action()` at `|`)
    @inlinable
    public func doCompleted(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .completed = event { action() }
                    sink.send(event)
                }, in: lifetime)
        })
    }

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
