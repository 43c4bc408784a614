import Observable

extension ActionSource where Self: KeyPathObservable {
    /// `observe(_:)` for a `Bool` key path of a control: `observe(\.isEnabled)` follows the action
    /// registry's state (RAC's `RACObserve(button, enabled)`), since `isEnabled` lives in the registry,
    /// not in `@Observed` storage; any other `Bool` key path is observed as usual.
    ///
    /// The key path is recognized by evaluating it once: one that reads this control's `isEnabled` is
    /// `actions.enabled`. (A key path through another object, `\.form.signInButton.isEnabled`, is not:
    /// observe the button itself.)
    ///
    /// So `button.observe(\.isEnabled)` sends the current value, then each change however it is made
    /// (`isEnabled`, `actions.isEnabled`, a bound `Command`), and completes when the control is
    /// deinitialized — the same as `actions.enabled`.
    ///
    /// ```swift
    /// final class Button: ActionSource, KeyPathObservable {
    ///     let actions = ActionRegistry<Button>()
    ///     @Observed var title = "Sign in"
    /// }
    /// let signInButton = Button()
    /// signInButton.observe(\.isEnabled).subscribe(next: { print("enabled:", $0) })   // enabled: true
    /// signInButton.isEnabled = false                                                  // enabled: false
    /// ```
    public func observe(_ keyPath: KeyPath<Self, Bool>) -> Signal<Bool, Never> {
        // `\.isEnabled` (or another key path that reads this control's registry state).
        if EnabledReadProbe.reads(actions, during: { _ = self[keyPath: keyPath] }) {
            return actions.enabled
        }
        return observeAsUsual(keyPath)
    }

    /// The general `observe(_:)`, reached from a context where only it applies.
    private func observeAsUsual<T>(_ keyPath: KeyPath<Self, T>) -> Signal<T, Never> {
        observe(keyPath)
    }
}
