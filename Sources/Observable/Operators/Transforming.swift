extension SignalConvertible {
    /// Transforms each value (RAC's `map:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).map { $0 * 10 }   // 10, 20, 30
    /// ```
    /// Marble: `-1-2-3-|` → `-10-20-30-|`
    @inlinable
    public func map<NewValue>(_ transform: @escaping (Value) -> NewValue) -> Signal<NewValue, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value): sink.send(.next(transform(value)))
                    case .error(let failure): sink.send(.error(failure))
                    case .completed: sink.send(.completed)
                    }
                }, in: lifetime)
        })
    }
}
