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
}
