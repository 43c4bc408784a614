import Observable

extension CommandSource {
    /// Drives this source with `command`: each trigger executes the command with the trigger's value,
    /// and the command's `enabled` is written to `isEnabled` (its current value at once).
    ///
    /// The binding holds the source weakly and the command strongly (as RAC's `rac_command` did); it
    /// ends when the source goes away (at the latest on the next `enabled` change), when `triggers`
    /// or `enabled` completes, or when disposed. A trigger while the command is disabled does nothing.
    /// Made from actor-isolated code, `isEnabled` is set — and each trigger executes — on that actor.
    ///
    /// ```swift
    /// final class Button: CommandSource {
    ///     let taps = Subject<Void, Never>()
    ///     var triggers: Signal<Void, Never> { taps.signal }
    ///     var isEnabled = true
    /// }
    /// let signInButton = Button(), signIn = Command { print("signing in") }
    /// signInButton.bind(command: signIn)
    /// ```
    @discardableResult
    public func bind<Output, Failure>(
        command: Command<Trigger, Output, Failure>, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        bind(command: command, input: { $0 }, isolation: isolation)
    }

    /// Drives this source with `command`, turning each trigger into the command's input.
    ///
    /// ```swift
    /// final class Button: CommandSource {
    ///     let taps = Subject<Void, Never>()
    ///     var triggers: Signal<Void, Never> { taps.signal }
    ///     var isEnabled = true
    /// }
    /// let searchButton = Button(), query = MutableProperty("swift")
    /// let search = Command { (text: String) in print("searching", text) }
    /// searchButton.bind(command: search, input: { _ in query.value })
    /// ```
    @discardableResult
    public func bind<Input, Output, Failure>(
        command: Command<Input, Output, Failure>,
        input: @escaping (Trigger) -> Input,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        // Both subscriptions take this call's isolation: made on the main actor, the control's
        // `isEnabled` is set there and `input` runs there, whichever thread the command reports from.
        let link = CompositeDisposable()
        weak let source = self
        link.add(
            command.enabled.subscribe(
                next: { enabled in
                    guard let source else {
                        link.dispose()
                        return
                    }
                    source.isEnabled = enabled
                },
                completed: { link.dispose() }))
        if link.isDisposed { return link }
        link.add(
            triggers.subscribe(next: { trigger in command.execute(input(trigger)) }, completed: { link.dispose() }))
        return link
    }
}
