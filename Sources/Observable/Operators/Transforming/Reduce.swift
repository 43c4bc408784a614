import TetherEngine

extension SignalConvertible {
    /// Combines all values into one result, sent when the source completes (RAC's
    /// `aggregateWithStart:reduce:`).
    ///
    /// An empty source sends `initial`. A failing source sends only its error.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).reduce(0, +).subscribe(next: { print($0) })          // 6 — then completes
    /// Signal<Int, Never>.empty.reduce(10, +).subscribe(next: { print($0) })          // 10 — then completes
    /// ```
    /// Marble: `-1-2-3-|` → `-------(6|)`
    @inlinable
    public func reduce<Result>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            var running = initial
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        running = next(running, value)
                    case .error(let failure):
                        sink.send(.error(failure))
                    case .completed:
                        output.finish(after: running)
                    }
                }, in: lifetime)
        })
    }

    /// Collects every value into an array, sent when the source completes (RAC's `collect`).
    ///
    /// An empty source sends `[]`. A failing source sends only its error.
    ///
    /// ```swift
    /// Signal(values: 1...3).collect().subscribe(next: { print($0) })          // [1, 2, 3] — then completes
    /// Signal<Int, Never>.empty.collect().subscribe(next: { print($0) })      // [] — then completes
    /// ```
    /// Marble: `-1-2-3-|` → `-------([1,2,3]|)`
    @inlinable
    public func collect() -> Signal<[Value], Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            var values: [Value] = []
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        values.append(value)
                    case .error(let failure):
                        values = []
                        sink.send(.error(failure))
                    case .completed:
                        let result = values
                        values = []
                        output.finish(after: result)
                    }
                }, in: lifetime)
        })
    }
}
