extension Signal {
    /// Combines the latest values of two signals with `reduce` (RAC's `+combineLatest:reduce:`): nothing is
    /// sent until each has sent a value; it fails when either fails and completes when both have completed.
    ///
    /// The same as ``combineLatest(_:_:)`` followed by `map`, in RAC's spelling, with a trailing closure.
    ///
    /// ```swift
    /// // The ReactiveCocoa tutorials' login form.
    /// let username = MutableProperty(""), password = MutableProperty("")
    /// let signInEnabled = Signal.combineLatest(username, password) { user, pass in
    ///     user.count > 3 && pass.count > 3
    /// }
    /// signInEnabled.subscribe(next: { print("enabled:", $0) })   // enabled: false
    /// ```
    @inlinable
    public static func combineLatest<A: SignalConvertible, B: SignalConvertible>(
        _ a: A, _ b: B,
        reduce: @escaping @Sendable (A.Value, B.Value) -> Value
    ) -> Signal where A.Failure == Failure, B.Failure == Failure {
        Signal<(A.Value, B.Value), Failure>.combineLatest(a, b).map { reduce($0.0, $0.1) }
    }

    /// Combines the latest values of 3 signals with `reduce` (RAC's `+combineLatest:reduce:`); see
    /// ``combineLatest(_:_:reduce:)``.
    ///
    /// ```swift
    /// let s0 = Subject<Int, Never>(), s1 = Subject<Int, Never>(), s2 = Subject<Int, Never>()
    /// Signal.combineLatest(s0, s1, s2) { v0, v1, v2 in v0 + v1 + v2 }
    /// ```
    @inlinable
    public static func combineLatest<A: SignalConvertible, B: SignalConvertible, C: SignalConvertible>(
        _ a: A, _ b: B, _ c: C,
        reduce: @escaping @Sendable (A.Value, B.Value, C.Value) -> Value
    ) -> Signal where A.Failure == Failure, B.Failure == Failure, C.Failure == Failure {
        Signal<(A.Value, B.Value, C.Value), Failure>.combineLatest(a, b, c).map { reduce($0.0, $0.1, $0.2) }
    }

    /// Combines the latest values of 4 signals with `reduce` (RAC's `+combineLatest:reduce:`); see
    /// ``combineLatest(_:_:reduce:)``.
    ///
    /// ```swift
    /// let s0 = Subject<Int, Never>(), s1 = Subject<Int, Never>(), s2 = Subject<Int, Never>(), s3 = Subject<Int, Never>()
    /// Signal.combineLatest(s0, s1, s2, s3) { v0, v1, v2, v3 in v0 + v1 + v2 + v3 }
    /// ```
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D,
        reduce: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value) -> Value
    ) -> Signal where A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Signal<(A.Value, B.Value, C.Value, D.Value), Failure>.combineLatest(a, b, c, d).map {
            reduce($0.0, $0.1, $0.2, $0.3)
        }
    }

    /// Combines the latest values of 5 signals with `reduce` (RAC's `+combineLatest:reduce:`); see
    /// ``combineLatest(_:_:reduce:)``.
    ///
    /// ```swift
    /// let s0 = Subject<Int, Never>(), s1 = Subject<Int, Never>(), s2 = Subject<Int, Never>(), s3 = Subject<Int, Never>(), s4 = Subject<Int, Never>()
    /// Signal.combineLatest(s0, s1, s2, s3, s4) { v0, v1, v2, v3, v4 in v0 + v1 + v2 + v3 + v4 }
    /// ```
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible, E: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E,
        reduce: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value) -> Value
    ) -> Signal
    where A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure, E.Failure == Failure {
        Signal<(A.Value, B.Value, C.Value, D.Value, E.Value), Failure>.combineLatest(a, b, c, d, e).map {
            reduce($0.0, $0.1, $0.2, $0.3, $0.4)
        }
    }

    /// Combines the latest values of 6 signals with `reduce` (RAC's `+combineLatest:reduce:`); see
    /// ``combineLatest(_:_:reduce:)``.
    ///
    /// ```swift
    /// let s0 = Subject<Int, Never>(), s1 = Subject<Int, Never>(), s2 = Subject<Int, Never>(), s3 = Subject<Int, Never>(), s4 = Subject<Int, Never>(), s5 = Subject<Int, Never>()
    /// Signal.combineLatest(s0, s1, s2, s3, s4, s5) { v0, v1, v2, v3, v4, v5 in v0 + v1 + v2 + v3 + v4 + v5 }
    /// ```
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible, E: SignalConvertible,
        F: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F,
        reduce: @escaping @Sendable (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value) -> Value
    ) -> Signal
    where
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure, E.Failure == Failure,
        F.Failure == Failure
    {
        Signal<(A.Value, B.Value, C.Value, D.Value, E.Value, F.Value), Failure>.combineLatest(a, b, c, d, e, f).map {
            reduce($0.0, $0.1, $0.2, $0.3, $0.4, $0.5)
        }
    }
}
