import TetherEngine

extension SignalConvertible {
    /// Sends only the values that satisfy `isIncluded` (RAC's `filter:`).
    ///
    /// ```swift
    /// Signal(values: 1...6).filter { $0.isMultiple(of: 2) }.subscribe(next: { print($0) })   // 2, 4, 6
    /// ```
    /// Marble: `-1-2-3-4-|` → `---2---4-|`
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        uncheckedFilter(isIncluded)
    }

    /// `filter(_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package func uncheckedFilter(
        _ isIncluded: @escaping (Value) -> Bool, function: StaticString = #function
    ) -> Signal<Value, Failure> {
        // Linked so that releasing a chain of many filters does not nest one release per stage.
        let upstream = signal.linkedForDeepChains
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                switch sink {
                case .values(let next):
                    // As in `map`: values on as values to a values-only subscriber.
                    upstream.start(.values { value in if isIncluded(value) { next(value) } }, in: lifetime)
                case .events(let action):
                    upstream.start(
                        Sink { event in
                            if case .next(let value) = event, !isIncluded(value) { return }
                            action(event)
                        }, in: lifetime)
                }
            })
    }

    /// Drops every value and forwards only the terminal event (RAC's `ignoreValues`).
    ///
    /// The value type is kept, as in RAC, so the result composes with the source's siblings.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let upload = Signal<Void, IOError>.empty
    /// upload.ignoreValues().subscribe(completed: { print("uploaded") })
    /// ```
    /// Marble: `-1-2-3-|` → `-------|`
    @inlinable
    public func ignoreValues() -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .next = event { return }
                    sink.send(event)
                }, in: lifetime)
        })
    }
}

extension SignalConvertible where Value: Equatable {
    /// Drops every value equal to `value` (RAC's `ignore:`).
    ///
    /// ```swift
    /// Signal(values: ["a", "", "b"]).ignore("").subscribe(next: { print($0) })   // a, b
    /// ```
    /// Marble: `-a-x-b-x-|` → `-a---b---|`  (ignore(x))
    @inlinable
    public func ignore(_ value: Value) -> Signal<Value, Failure> {
        uncheckedFilter { $0 != value }
    }
}
