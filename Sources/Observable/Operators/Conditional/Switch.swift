import TetherEngine

extension Signal {
    /// Sends the events of the signal that `cases` holds for the latest key, or of `defaultSignal` for a
    /// key it does not hold (RAC's `+switch:cases:default:`).
    ///
    /// Each key subscribes anew to its signal and disposes the previous one, even when the key repeats
    /// (``SignalConvertible/switchToLatest()`` semantics; add ``SignalConvertible/distinctUntilChanged()``
    /// to `keys` to keep the current one). Nothing is sent before `keys` sends. The result completes when
    /// `keys` has completed and the chosen signal (if any) has completed; an error from any of them fails
    /// it.
    ///
    /// `default:` is required: RAC failed with `RACSignalErrorNoMatchingCase` for an unknown key when
    /// it had no default, an error a typed `Failure` cannot hold. Pass ``Signal/empty`` to send nothing
    /// for unknown keys, or `Signal(error:)` with your own error to fail.
    ///
    /// ```swift
    /// enum Screen: Hashable { case login, search, settings }
    /// let screen = Subject<Screen, Never>()
    /// let title = Signal.switch(
    ///     screen,
    ///     cases: [.login: Signal(value: "Sign in"), .search: Signal(value: "Search")],
    ///     default: Signal(value: "Tether"))
    /// title.subscribe(next: { print($0) })
    /// screen.send(.search)     // prints Search
    /// screen.send(.settings)   // Tether
    /// ```
    /// Marble: keys `-a---b---c-|`, cases a: `-1|`, b: `-2-3|`, default `-4|` → `--1---2-3-4|`
    public static func `switch`<Keys: SignalConvertible, Default: SignalConvertible>(
        _ keys: Keys,
        cases: [Keys.Value: Signal],
        default defaultSignal: Default
    ) -> Signal
    where Keys.Value: Hashable, Keys.Failure == Failure, Default.Value == Value, Default.Failure == Failure {
        let fallback = defaultSignal.signal
        return keys.uncheckedMap { key in cases[key] ?? fallback }.switchToLatest()
    }
}
