import TetherEngine

extension SignalConvertible {
    /// Drops the first `count` values (RAC's `skip:`). A count of zero or less skips nothing.
    ///
    /// ```swift
    /// Signal(values: 1...5).skip(2).subscribe(next: { print($0) })   // 3, 4, 5
    /// ```
    /// Marble: `-1-2-3-4-|` → `-----3-4-|`
    @inlinable
    public func skip(_ count: Int) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let remaining = StateBox(count)
            upstream.start(
                Sink { event in
                    if remaining.value > 0, case .next = event {
                        remaining.value -= 1
                        return
                    }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Drops values while `predicate` holds; from the first value that fails it on, sends every
    /// value (RAC's `skipWhileBlock:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).skip(while: { $0 < 3 }).subscribe(next: { print($0) })   // 5, 1
    /// ```
    /// Marble: `-1-2-5-1-|` → `-----5-1-|`
    @inlinable
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            var skipping = true
            upstream.start(
                Sink { event in
                    if skipping, case .next(let value) = event {
                        if predicate(value) { return }
                        skipping = false
                    }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Drops values until `predicate` returns `true` for one; from that value on, sends every
    /// value (RAC's `skipUntilBlock:`). The opposite of ``skip(while:)``.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).skip(untilTrue: { $0 > 3 }).subscribe(next: { print($0) })   // 5, 1
    /// ```
    /// Marble: `-1-2-5-1-|` → `-----5-1-|`
    @inlinable
    public func skip(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        skip(while: { !predicate($0) })
    }
}
