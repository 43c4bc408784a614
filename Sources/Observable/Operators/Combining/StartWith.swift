import TetherEngine

extension SignalConvertible {
    /// Prepends `value`: sends it on subscription, then this signal's events (RAC's `startWith:`).
    ///
    /// ```swift
    /// let searchText = Subject<String, Never>()
    /// searchText.startWith("").subscribe(next: { print("query:", $0) })   // query: (empty) — first
    /// ```
    /// Marble: `--a--b-|` → `x-a--b-|`
    @inlinable
    public func startWith(_ value: Value) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            sink.send(.next(value))
            if lifetime.isDisposed { return }
            upstream.start(sink, in: lifetime)
        })
    }
}
