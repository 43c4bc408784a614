import TetherEngine

extension SignalConvertible where Value == Bool {
    /// Sends the negation of each value (RAC's `not`).
    ///
    /// ```swift
    /// let isLoading = Subject<Bool, Never>()
    /// let buttonEnabled = isLoading.not()   // enabled while not loading
    /// ```
    /// Marble: `-t-f-|` → `-f-t-|`
    @inlinable
    public func not() -> Signal<Bool, Failure> {
        map { !$0 }
    }
}

extension SignalConvertible where Value == [Bool] {
    /// Sends `true` when every Bool of each array is `true` (RAC's `and`, which takes a `RACTuple` of
    /// Bools; Tether takes an array, as `Signal.combineLatest(_:)` on a collection sends).
    ///
    /// An empty array gives `true` (RAC asserts that the tuple is not empty). To combine the latest
    /// values of several Bool signals, use ``Signal/and(_:)``.
    ///
    /// ```swift
    /// let nameValid = Subject<Bool, Never>(), passwordValid = Subject<Bool, Never>()
    /// Signal.combineLatest([nameValid.signal, passwordValid.signal]).and()   // the form is valid
    /// ```
    /// Marble: `-[t,t]-[t,f]-|` → `-t-f-|`
    @inlinable
    public func and() -> Signal<Bool, Failure> {
        map { $0.allSatisfy { $0 } }
    }

    /// Sends `true` when any Bool of each array is `true` (RAC's `or`, which takes a `RACTuple` of
    /// Bools; Tether takes an array, as `Signal.combineLatest(_:)` on a collection sends).
    ///
    /// An empty array gives `false` (RAC asserts that the tuple is not empty). To combine the latest
    /// values of several Bool signals, use ``Signal/or(_:)``.
    ///
    /// ```swift
    /// let hasText = Subject<Bool, Never>(), hasImage = Subject<Bool, Never>()
    /// Signal.combineLatest([hasText.signal, hasImage.signal]).or()   // the post can be sent
    /// ```
    /// Marble: `-[f,f]-[t,f]-|` → `-f-t-|`
    @inlinable
    public func or() -> Signal<Bool, Failure> {
        map { $0.contains(true) }
    }
}

extension Signal where Value == Bool {
    /// Sends `true` when the latest values of all `signals` are `true`, and `false` otherwise: RAC's
    /// `[[RACSignal combineLatest:signals] and]`.
    ///
    /// Nothing is sent until every signal has sent a value; then a value is sent for each new value
    /// of any signal (use ``SignalConvertible/distinctUntilChanged()`` to drop repeats). It fails
    /// when any signal fails and completes when all have completed. An empty collection completes
    /// at once without sending, as `Signal.combineLatest(_:)` on a collection does.
    ///
    /// ```swift
    /// let nameValid = Subject<Bool, Never>(), passwordValid = Subject<Bool, Never>()
    /// let formValid = Signal.and([nameValid.signal, passwordValid.signal])
    /// ```
    /// Marble: `a: -t---f-`, `b: ---t---` → `---t-f-`
    @inlinable
    public static func and<Signals: Sequence>(_ signals: Signals) -> Signal
    where Signals.Element: SignalConvertible, Signals.Element.Value == Bool, Signals.Element.Failure == Failure {
        Signal<[Bool], Failure>.combineLatest(signals).and()
    }

    /// Sends `true` when the latest value of any of `signals` is `true`, and `false` otherwise:
    /// RAC's `[[RACSignal combineLatest:signals] or]`.
    ///
    /// Nothing is sent until every signal has sent a value; then a value is sent for each new value
    /// of any signal (use ``SignalConvertible/distinctUntilChanged()`` to drop repeats). It fails
    /// when any signal fails and completes when all have completed. An empty collection completes
    /// at once without sending, as `Signal.combineLatest(_:)` on a collection does.
    ///
    /// ```swift
    /// let hasText = Subject<Bool, Never>(), hasImage = Subject<Bool, Never>()
    /// let canPost = Signal.or([hasText.signal, hasImage.signal])
    /// ```
    /// Marble: `a: -f---t-`, `b: ---f---` → `---f-t-`
    @inlinable
    public static func or<Signals: Sequence>(_ signals: Signals) -> Signal
    where Signals.Element: SignalConvertible, Signals.Element.Value == Bool, Signals.Element.Failure == Failure {
        Signal<[Bool], Failure>.combineLatest(signals).or()
    }
}
