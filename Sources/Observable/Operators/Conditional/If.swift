import TetherEngine

extension Signal {
    /// Sends the events of `then` while the latest value of `condition` is `true`, and those of
    /// `else` while it is `false` (RAC's `+if:then:else:`).
    ///
    /// Each value of `condition` subscribes anew to the chosen signal and disposes the previous
    /// one, even when the value repeats (``SignalConvertible/switchToLatest()`` semantics; add
    /// ``SignalConvertible/distinctUntilChanged()`` to `condition` to keep the current one). Nothing is
    /// sent before `condition` sends. The result completes when `condition` has completed and the
    /// chosen signal (if any) has completed; an error from any of them fails it.
    ///
    /// ```swift
    /// let loggedIn = Subject<Bool, Never>()
    /// let title = Signal.if(loggedIn, then: Signal(value: "Welcome back"), else: Signal(value: "Sign in"))
    /// ```
    /// Marble: condition `-t---f---|`, then `-1-2|`, else `-3|` → `--1-2-3--|`
    @inlinable
    public static func `if`<Condition: SignalConvertible, Then: SignalConvertible, Else: SignalConvertible>(
        _ condition: Condition, then thenSignal: Then, else elseSignal: Else
    ) -> Signal
    where
        Condition.Value == Bool, Condition.Failure == Failure,
        Then.Value == Value, Then.Failure == Failure,
        Else.Value == Value, Else.Failure == Failure
    {
        let whenTrue = thenSignal.signal
        let whenFalse = elseSignal.signal
        return condition.uncheckedMap { $0 ? whenTrue : whenFalse }.switchToLatest()
    }
}
