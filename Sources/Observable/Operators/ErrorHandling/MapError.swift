import TetherEngine

extension SignalConvertible {
    /// Replaces the failure type: every error is transformed by `transform`.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let download = Signal<Data, IOError>.empty
    /// enum AppError: Error { case network(IOError) }
    /// download.mapError { AppError.network($0) }
    /// ```
    /// Marble: `-1-X` → `-1-Y` where `Y = transform(X)`
    @inlinable
    public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Signal<Value, NewFailure> {
        replacingFailures(transform)
    }

    /// The stage of `mapError(_:)` and `promoteError(_:)`: values and completion pass, an error is
    /// replaced by `transform`'s. `function` names the public operator for the debugging tools.
    @inlinable
    func replacingFailures<NewFailure: Error>(
        _ transform: @escaping (Failure) -> NewFailure, function: StaticString = #function
    ) -> Signal<Value, NewFailure> {
        let upstream = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                upstream.start(
                    Sink { event in
                        switch event {
                        case .next(let value): sink.send(.next(value))
                        case .error(let failure): sink.send(.error(transform(failure)))
                        case .completed: sink.send(.completed)
                        }
                    }, in: lifetime)
            })
    }
}

extension SignalConvertible where Failure == Never {
    /// Gives a signal that cannot fail any failure type, so it combines with failable signals.
    /// Nothing changes at run time.
    ///
    /// ```swift
    /// enum SearchError: Error { case offline }
    /// let query = Subject<String, Never>()
    /// let search: @Sendable (String) -> Signal<[String], SearchError> = { text in Signal(value: [text]) }
    /// let results = query.promoteError(SearchError.self).flatMapLatest { search($0) }
    /// ```
    /// Marble: `-1-2-|` → `-1-2-|`
    @inlinable
    public func promoteError<NewFailure: Error>(
        _ failureType: NewFailure.Type = NewFailure.self
    ) -> Signal<Value, NewFailure> {
        // No `Never` failure exists, so the transform is never called (and needs no body).
        replacingFailures { (_: Never) -> NewFailure in }
    }
}
