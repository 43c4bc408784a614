extension SignalConvertible {
    /// Sends only the values that satisfy `isIncluded` (RAC's `filter:`).
    ///
    /// ```swift
    /// Signal(values: 1...6).filter { $0.isMultiple(of: 2) }   // 2, 4, 6
    /// ```
    /// Marble: `-1-2-3-4-|` → `---2---4-|`
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .next(let value) = event, !isIncluded(value) { return }
                    sink.send(event)
                }, in: lifetime)
        })
    }
}
