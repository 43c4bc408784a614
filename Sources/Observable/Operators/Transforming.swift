extension SignalConvertible {
    /// Transforms each value (RAC's `map:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).map { $0 * 10 }   // 10, 20, 30
    /// ```
    /// Marble: `-1-2-3-|` → `-10-20-30-|`
    @inlinable
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue, Failure> {
        uncheckedMap(transform)
    }

    /// `map(_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package func uncheckedMap<NewValue>(
        _ transform: @escaping (Value) -> NewValue, function: StaticString = #function
    ) -> Signal<NewValue, Failure> {
        // Linked so that releasing a chain of many maps does not nest one release per stage.
        let upstream = signal.linkedForDeepChains
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                switch sink {
                case .values(let next):
                    // A values-only subscriber ignores the terminal event: pass values on as values (no event
                    // made and matched again per stage, no context for the subscriber's closure).
                    upstream.start(.values { value in next(transform(value)) }, in: lifetime)
                case .events(let action):
                    upstream.start(
                        Sink { event in
                            switch event {
                            case .next(let value): action(.next(transform(value)))
                            case .error(let failure): action(.error(failure))
                            case .completed: action(.completed)
                            }
                        }, in: lifetime)
                }
            })
    }
}

extension SignalConvertible {
    /// Sends a running accumulation: each value is combined with the previous result, and every
    /// intermediate result is sent (RAC's `scanWithStart:reduce:`).
    ///
    /// The accumulation starts from `initial` anew for each subscription.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).scan(0, +)   // 1, 3, 6
    /// ```
    /// Marble: `-1-2-3-|` → `-1-3-6-|`
    @inlinable
    public func scan<Result>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        uncheckedScan(initial, next)
    }

    /// `scan(_:_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package func uncheckedScan<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result, function: StaticString = #function
    ) -> Signal<Result, Failure> {
        let upstream = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let running = StateBox(initial)
                upstream.start(
                    Sink { event in
                        switch event {
                        case .next(let value):
                            running.value = next(running.value, value)
                            sink.send(.next(running.value))
                        case .error(let failure): sink.send(.error(failure))
                        case .completed: sink.send(.completed)
                        }
                    }, in: lifetime)
            })
    }

    /// Combines all values into one result, sent when the source completes (RAC's
    /// `aggregateWithStart:reduce:`).
    ///
    /// An empty source sends `initial`. A failing source sends only its error.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).reduce(0, +)          // 6, then completes
    /// Signal<Int, Never>.empty.reduce(10, +)          // 10, then completes
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
    /// Signal(values: 1...3).collect()          // [1, 2, 3], then completes
    /// Signal<Int, Never>.empty.collect()      // [], then completes
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

    /// Turns every event into a value: values, the error and the completion all arrive as
    /// ``Event``s, and the result completes after the source's terminal event (RAC's `materialize`).
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// Signal<Int, MyError>(error: .boom).materialize()   // .error(.boom), then completes
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
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value): sink.send(.next(value))
                    case .completed: sink.send(.completed)
                    }
                }, in: lifetime)
        })
    }

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
    /// events.send(.next(1))   // 1
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
