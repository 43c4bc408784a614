import TetherEngine

extension SignalConvertible {
    /// Runs `action` each time the result is subscribed, just before the source is subscribed
    /// (RAC's `initially:`).
    ///
    /// ```swift
    /// let attempts = MutableProperty(0)
    /// let request = Signal<Int, Never>(value: 200)
    /// request.initially { attempts.modify { $0 += 1 } }.subscribe()   // attempts.value == 1
    /// ```
    /// Marble: `-1-|` → `-1-|` (calling `action()` at subscription)
    @inlinable
    public func initially(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            action()
            upstream.start(sink, in: lifetime)
        })
    }

    /// Runs `action` when the source completes or fails, just before the terminal event is sent on
    /// (RAC's `finally:`).
    ///
    /// As in RAC 2.5, `action` does **not** run when the subscription is disposed before a terminal
    /// event (by `dispose()`, ``take(_:)``, ``take(until:)`` and the like); add a disposable to the
    /// subscription for that.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let download = Signal<Int, IOError>(error: .closed)
    /// download.finally { print("hide the spinner") }.subscribe()
    /// ```
    /// Marble: `-1-|` → `-1-|` (calling `action()` at `|`); `-1-X` → `-1-X` (calling `action()` at `X`)
    @inlinable
    public func finally(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    switch event {
                    case .next: break
                    case .error, .completed: action()
                    }
                    sink.send(event)
                }, in: lifetime)
        })
    }

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
}
