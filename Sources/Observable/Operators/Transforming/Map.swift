import TetherEngine

extension SignalConvertible {
    /// Replaces every value with `value` (RAC's `mapReplace:`). Errors and completion pass through.
    ///
    /// ```swift
    /// let taps = Subject<Void, Never>()
    /// let increments = taps.map(to: 1)   // 1 for each tap
    /// ```
    /// Marble: `-a-b-|` → `-x-x-|`  (map(to: x))
    @inlinable
    @_disfavoredOverload  // so that a trailing closure (`map { … }`) never matches `to:` with a closure value
    public func map<NewValue>(to value: NewValue) -> Signal<NewValue, Failure> {
        uncheckedMap { _ in value }
    }

    /// Transforms each value (RAC's `map:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).map { $0 * 10 }.subscribe(next: { print($0) })   // 10, 20, 30
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
        // Decided before the start closure captures `upstream` (see `Signal.init(annex:unsafeStart:)`).
        let annex = Signal<NewValue, Failure>.annexOfNewSignal(function: function)
        return Signal(
            annex: annex,
            unsafeStart: { sink, lifetime in
                switch sink {
                case .values(let next):
                    // Right below a plain subject, while the debugging tools track nothing (the annex says
                    // both): the subject's entry holds the two closures, one object for what the sink's
                    // context and an entry holding it would be (see `SignalAnnex`). `upstream` keeps the core
                    // alive: borrowed, not retained.
                    if let source = upstream.plainSubjectSource, !DebugSwitch.needsSignalTracking {
                        source._withUnsafeGuaranteedRef {
                            unsafeDowncast($0, to: SubjectCore<Value, Failure>.self)
                                .joinMapping(next: next, transform: transform, lifetime: lifetime)
                        }
                        return
                    }
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
