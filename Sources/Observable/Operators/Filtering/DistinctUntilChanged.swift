import TetherEngine

extension SignalConvertible {
    /// Drops a value when `isEquivalent(previous, value)` says it equals the value sent before it
    /// (RAC's `distinctUntilChanged`, with your own notion of equality). The first value is always
    /// sent.
    ///
    /// ```swift
    /// struct User { var id: Int; var name: String }
    /// let users = Subject<User, Never>()
    /// users.distinctUntilChanged(by: { $0.id == $1.id })
    /// ```
    /// Marble: `-a-a-b-b-a-|` → `-a---b---a-|`
    @inlinable
    public func distinctUntilChanged(
        by isEquivalent: @escaping @Sendable (Value, Value) -> Bool
    ) -> Signal<Value, Failure> {
        uncheckedDistinctUntilChanged(by: isEquivalent)
    }

    /// `distinctUntilChanged(by:)` for Tether's own stages (see ``uncheckedMap(_:function:)``).
    @inlinable
    package func uncheckedDistinctUntilChanged(
        by isEquivalent: @escaping (Value, Value) -> Bool, function: StaticString = #function
    ) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let previous = StateBox<Value?>(nil)
                upstream.start(
                    Sink { event in
                        if case .next(let value) = event {
                            if let last = previous.value, isEquivalent(last, value) { return }
                            previous.value = value
                        }
                        sink.send(event)
                    }, in: lifetime)
            })
    }
}

extension SignalConvertible where Value: Equatable {
    /// Drops a value equal to the value sent before it (RAC's `distinctUntilChanged`).
    /// The first value is always sent.
    ///
    /// ```swift
    /// Signal(values: [1, 1, 2, 2, 1]).distinctUntilChanged().subscribe(next: { print($0) })   // 1, 2, 1
    /// ```
    /// Marble: `-1-1-2-2-1-|` → `-1---2---1-|`
    @inlinable
    public func distinctUntilChanged() -> Signal<Value, Failure> {
        uncheckedDistinctUntilChanged(by: ==)
    }
}
