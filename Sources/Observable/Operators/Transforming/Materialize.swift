import TetherEngine

extension SignalConvertible {
    /// Turns every event into a value: values, the error and the completion all arrive as
    /// ``Event``s, and the result completes after the source's terminal event (RAC's `materialize`).
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// Signal<Int, MyError>(error: .boom).materialize()
    ///     .subscribe(next: { print($0) })   // error(boom) — then completes
    /// ```
    /// Marble: `-1-2-X` → `-next(1)-next(2)-(error(X)|)`
    @inlinable
    public func materialize() -> Signal<Event<Value, Failure>, Never> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            upstream.start(
                Sink { event in
                    if event.isTerminal {
                        output.finish(after: event)
                    } else {
                        output.send(event)
                    }
                }, in: lifetime)
        })
    }
}

extension SignalConvertible where Failure == Never {
    /// Turns ``Event`` values back into events: `.next` values are sent, and the first `.error` or
    /// `.completed` ends the result (RAC's `dematerialize`). The inverse of ``materialize()``.
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// Signal<Int, MyError>(error: .boom).materialize().dematerialize()   // fails with .boom
    /// ```
    /// Marble: `-next(1)-error(X)-` → `-1-X`
    @inlinable
    public func dematerialize<NewValue, NewFailure>() -> Signal<NewValue, NewFailure>
    where Value == Event<NewValue, NewFailure> {
        promoteError(NewFailure.self).dematerialize()
    }
}

extension SignalConvertible {
    /// Turns ``Event`` values back into events on a signal that can itself fail with the same
    /// failure type: `.next` values are sent; the first `.error` or `.completed` value, or the
    /// signal's own terminal event, ends the result (RAC's `dematerialize`).
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// let events = Subject<Event<Int, MyError>, MyError>()
    /// events.dematerialize().subscribe(next: { print($0) })
    /// events.send(.next(1))   // prints 1
    /// ```
    /// Marble: `-next(1)-completed-` → `-1-|`
    @inlinable
    public func dematerialize<NewValue>() -> Signal<NewValue, Failure>
    where Value == Event<NewValue, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            var finished = false
            upstream.start(
                Sink { event in
                    if finished { return }
                    switch event {
                    case .next(let inner):
                        if inner.isTerminal { finished = true }
                        output.forward(inner)
                    case .error(let failure):
                        finished = true
                        sink.send(.error(failure))
                    case .completed:
                        finished = true
                        sink.send(.completed)
                    }
                }, in: lifetime)
        })
    }
}
