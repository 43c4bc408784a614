import TetherEngine

extension SignalConvertible {
    /// Combines the latest values of this signal and `other` into pairs (RAC's `combineLatestWith:`).
    ///
    /// Nothing is sent until both have sent a value; from then on every value of either side sends
    /// the pair of the latest values. The result fails as soon as either side fails, and completes
    /// only when both have completed. Disposing the subscription disposes both upstreams.
    ///
    /// ```swift
    /// let name = Subject<String, Never>()
    /// let age = Subject<Int, Never>()
    /// name.combineLatest(with: age).subscribe(next: { print($0) })
    /// name.send("Ann")   // prints nothing yet
    /// age.send(30)       // ("Ann", 30)
    /// name.send("Bob")   // ("Bob", 30)
    /// ```
    /// Marble:
    /// ```text
    /// self:   -a-----b---|
    /// other:  ---1-2----3---|
    /// result: ---(a,1)-(a,2)-(b,2)-(b,3)---|
    /// ```
    /// Events of both sides are serialized (they may arrive on different threads); the observer
    /// never runs two events at once. It may complete or dispose either side from inside its callback.
    @inlinable
    public func combineLatest<Other: SignalConvertible>(
        with other: Other
    ) -> Signal<(Value, Other.Value), Failure> where Other.Failure == Failure {
        let first = signal
        let second = other.signal
        return Signal.combining(first, second, logic: CombineLatestPair<Value, Other.Value, Failure>())
    }
}

/// The logic of a two-input `combineLatest`: one per subscription, driven by its mailbox (a class
/// with unchecked exclusivity: see ``StateBox``).
@usableFromInline
final class CombineLatestPair<First, Second, Failure: Error>: TwoInputLogic {
    @usableFromInline @exclusivity(unchecked) var first: First?
    @usableFromInline @exclusivity(unchecked) var second: Second?
    @usableFromInline @exclusivity(unchecked) var firstCompleted = false
    @usableFromInline @exclusivity(unchecked) var secondCompleted = false

    @inlinable
    init() {}

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ input: BinaryInput<First, Second, Failure>, output: OperatorOutput<(First, Second), Failure>) {
        switch input {
        case .first(.next(let value)):
            first = value
            if let latest = second { output.send((value, latest)) }
        case .second(.next(let value)):
            second = value
            if let latest = first { output.send((latest, value)) }
        case .first(.completed):
            firstCompleted = true
            if secondCompleted { output.finish(.completed) }
        case .second(.completed):
            secondCompleted = true
            if firstCompleted { output.finish(.completed) }
        case .first(.error), .second(.error), .gone:
            break  // the scaffold's
        }
    }
}

extension Signal {
    /// Combines the latest values of two signals (RAC's `+combineLatest:`); see
    /// ``SignalConvertible/combineLatest(with:)``. Reduce the pairs with `map`
    /// (RAC's `+combineLatest:reduce:`).
    ///
    /// ```swift
    /// // The login form of the ReactiveCocoa tutorials: the button is enabled when both fields are valid.
    /// let validUsername = Subject<Bool, Never>(), validPassword = Subject<Bool, Never>()
    /// let enabled = Signal.combineLatest(validUsername, validPassword).map { $0 && $1 }
    /// ```
    /// Marble: `a: -t---f-`, `b: ---t---` → `---(t,t)-(f,t)-`
    @inlinable
    public static func combineLatest<A: SignalConvertible, B: SignalConvertible>(
        _ a: A, _ b: B
    ) -> Signal where Value == (A.Value, B.Value), A.Failure == Failure, B.Failure == Failure {
        a.combineLatest(with: b)
    }

    /// Combines the latest values of three signals into triples; nothing is sent until each has sent
    /// a value, it fails when any fails and completes when all have completed.
    ///
    /// ```swift
    /// let name = Subject<String, Never>(), age = Subject<Int, Never>(), city = Subject<String, Never>()
    /// Signal.combineLatest(name, age, city).map { "\($0) (\($1)), \($2)" }
    /// ```
    /// Marble: `a: -1----`, `b: --x---`, `c: ---T-F-` → `---(1,x,T)-(1,x,F)-`
    @inlinable
    public static func combineLatest<A: SignalConvertible, B: SignalConvertible, C: SignalConvertible>(
        _ a: A, _ b: B, _ c: C
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure
    {
        a.combineLatest(with: b).combineLatest(with: c).map { ($0.0, $0.1, $1) }
    }

    /// Combines the latest values of four signals into 4-tuples; see
    /// ``combineLatest(_:_:_:)``.
    ///
    /// ```swift
    /// let a = Subject<Int, Never>(), b = Subject<Int, Never>(), c = Subject<Int, Never>(), d = Subject<Int, Never>()
    /// Signal.combineLatest(a, b, c, d).map { $0 + $1 + $2 + $3 }
    /// ```
    /// Marble: `a: 1---`, `b: -2--`, `c: --3-`, `d: ---4` → `---(1,2,3,4)`
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value, D.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure
    {
        a.combineLatest(with: b).combineLatest(with: c).combineLatest(with: d)
            .map { ($0.0.0, $0.0.1, $0.1, $1) }
    }

    /// Combines the latest values of five signals into 5-tuples; see
    /// ``combineLatest(_:_:_:)``.
    ///
    /// ```swift
    /// let a = Subject<Bool, Never>(), b = Subject<Bool, Never>(), c = Subject<Bool, Never>()
    /// let d = Subject<Bool, Never>(), e = Subject<Bool, Never>()
    /// Signal.combineLatest(a, b, c, d, e).map { [$0, $1, $2, $3, $4].allSatisfy { $0 } }
    /// ```
    /// Marble: `a: 1----`, …, `e: ----5` → `----(1,2,3,4,5)`
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible,
        E: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value, D.Value, E.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure,
        E.Failure == Failure
    {
        a.combineLatest(with: b).combineLatest(with: c).combineLatest(with: d).combineLatest(with: e)
            .map { ($0.0.0.0, $0.0.0.1, $0.0.1, $0.1, $1) }
    }

    /// Combines the latest values of six signals into 6-tuples; see
    /// ``combineLatest(_:_:_:)``.
    ///
    /// ```swift
    /// let a = Subject<Int, Never>(), b = Subject<Int, Never>(), c = Subject<Int, Never>()
    /// let d = Subject<Int, Never>(), e = Subject<Int, Never>(), f = Subject<Int, Never>()
    /// Signal.combineLatest(a, b, c, d, e, f).map { $0.0 }
    /// ```
    /// Marble: `a: 1-----`, …, `f: -----6` → `-----(1,2,3,4,5,6)`
    @inlinable
    public static func combineLatest<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible,
        E: SignalConvertible, F: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value, D.Value, E.Value, F.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure,
        E.Failure == Failure, F.Failure == Failure
    {
        a.combineLatest(with: b).combineLatest(with: c).combineLatest(with: d).combineLatest(with: e)
            .combineLatest(with: f)
            .map { ($0.0.0.0.0, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1, $1) }
    }

    /// Combines the latest values of any number of same-typed signals into arrays, in the order of
    /// `signals` (RAC's `+combineLatest:` on an array).
    ///
    /// Nothing is sent until every signal has sent a value; it fails when any fails and completes
    /// when all have completed. **An empty collection completes at once** without sending (as RAC's
    /// `+combineLatest:@[]`). The collection is read once, when this signal is created.
    ///
    /// ```swift
    /// let nameValid = Subject<Bool, Never>(), emailValid = Subject<Bool, Never>()
    /// let checks: [Signal<Bool, Never>] = [nameValid.signal, emailValid.signal]
    /// Signal.combineLatest(checks).map { $0.allSatisfy { $0 } }   // the form is valid
    /// ```
    /// Marble: `a: -1---3-`, `b: ---2---` → `---[1,2]-[3,2]-`
    @inlinable
    public static func combineLatest<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal
    where
        Signals.Element: SignalConvertible, Value == [Signals.Element.Value],
        Failure == Signals.Element.Failure
    {
        return combining(signals.map(\.signal), logic: CombineLatestMany.init)
    }
}

/// The logic of `combineLatest` over a collection: one per subscription, driven by its mailbox.
@usableFromInline
final class CombineLatestMany<Input, Failure: Error>: ManyInputLogic {
    @usableFromInline @exclusivity(unchecked) var latest: [Input?]
    /// Inputs that have not sent a value yet.
    @usableFromInline @exclusivity(unchecked) var missing: Int
    @usableFromInline @exclusivity(unchecked) var running: InputCount

    @inlinable
    init(count: Int) {
        latest = Array(repeating: nil, count: count)
        missing = count
        running = InputCount(count)
    }

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ index: Int, _ event: Event<Input, Failure>, output: OperatorOutput<[Input], Failure>) {
        switch event {
        case .next(let value):
            if case .none = latest[index] { missing -= 1 }
            latest[index] = value
            if missing == 0 { output.send(latest.compactMap { $0 }) }
        case .completed:
            if running.finishOne() { output.finish(.completed) }
        case .error:
            break  // the scaffold's
        }
    }
}

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
