import TetherEngine

extension SignalConvertible {
    /// Runs `action` with each value before sending it on; if `action` throws, sends the error
    /// instead of the value and ends the subscription to the source (RAC's `try:`).
    ///
    /// The closure throws the signal's own failure type, so no error is lost to a cast.
    ///
    /// ```swift
    /// enum SaveError: Error { case diskFull }
    /// let write: @Sendable (String) throws(SaveError) -> Void = { text throws(SaveError) in
    ///     if text.isEmpty { throw .diskFull }
    /// }
    /// let drafts = Subject<String, SaveError>()
    /// drafts.attempt { text throws(SaveError) in try write(text) }
    ///     .subscribe(next: { print("saved", $0) }, error: { print("failed:", $0) })
    /// ```
    /// Marble: `-a-b-c-|` where `action(b)` throws `X` → `-a-X`
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) throws(Failure) -> Void) -> Signal<Value, Failure> {
        trying { value throws(Failure) in
            try action(value)
            return value
        }
    }

    /// Transforms each value with a closure that may throw; a thrown error is sent instead and ends
    /// the subscription to the source (RAC's `tryMap:`).
    ///
    /// The closure throws the signal's own failure type (typed throws), so the error arrives as it
    /// was thrown.
    ///
    /// ```swift
    /// enum ParseError: Error { case notANumber(String) }
    /// let input = Subject<String, ParseError>()
    /// let numbers = input.tryMap { text throws(ParseError) -> Int in
    ///     guard let number = Int(text) else { throw .notANumber(text) }
    ///     return number
    /// }
    /// ```
    /// Marble: `-1-x-3-|` where `transform(x)` throws `X` → `-1-X`
    @inlinable
    public func tryMap<NewValue>(
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Signal<NewValue, Failure> {
        trying(transform)
    }

    /// `tryMap` and `attempt`: `function` and `file` name the operator for the debugging tools.
    @inlinable
    func trying<NewValue>(
        _ transform: @escaping (Value) throws(Failure) -> NewValue,
        function: StaticString = #function, file: StaticString = #fileID
    ) -> Signal<NewValue, Failure> {
        let upstream = signal
        return Signal(
            unsafeStart: { sink, lifetime in
                let output = OperatorOutput(sink, lifetime)
                var failed = false
                upstream.start(
                    Sink { event in
                        if failed { return }
                        switch event {
                        case .next(let value):
                            let transformed: NewValue
                            do throws(Failure) {
                                transformed = try transform(value)
                            } catch {
                                failed = true
                                output.finish(.error(error))
                                return
                            }
                            sink.send(.next(transformed))
                        case .error(let failure):
                            sink.send(.error(failure))
                        case .completed:
                            sink.send(.completed)
                        }
                    }, in: lifetime)
            }, function: function, file: file)
    }
}
