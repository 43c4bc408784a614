/// Something a user triggers that can be enabled or disabled — a button of a UI toolkit, an entry of
/// Bridges' action registry — so that a ``Command`` can drive it (RAC's `button.rac_command = command`).
///
/// Binding does not depend on Bridges (or on any toolkit): they adopt this protocol instead.
///
/// ```swift
/// final class Button: CommandSource {
///     let taps = Subject<Void, Never>()
///     var triggers: Signal<Void, Never> { taps.signal }
///     var isEnabled = true
/// }
/// loginButton.bind(command: viewModel.login)   // taps execute it; its `enabled` drives isEnabled
/// ```
public protocol CommandSource: AnyObject {
    /// What the source sends when triggered (often `Void`).
    associatedtype Trigger

    /// Sends a value each time the user triggers the source.
    var triggers: Signal<Trigger, Never> { get }

    /// Whether the source accepts triggers; a bound command sets it (on the thread where the
    /// command's `enabled` changes).
    var isEnabled: Bool { get set }
}

extension CommandSource {
    /// Drives this source with `command`: each trigger executes the command with the trigger's value,
    /// and the command's `enabled` is written to ``isEnabled`` (its current value at once).
    ///
    /// The binding holds the source weakly and the command strongly (as RAC's `rac_command` did); it
    /// ends when the source goes away (at the latest on the next `enabled` change), when `triggers`
    /// or `enabled` completes, or when disposed. A trigger while the command is disabled does nothing.
    ///
    /// ```swift
    /// signInButton.bind(command: viewModel.signIn)
    /// ```
    @discardableResult
    public func bind<Output, Failure>(command: Command<Trigger, Output, Failure>) -> any Disposable {
        bind(command: command, input: { $0 })
    }

    /// Drives this source with `command`, turning each trigger into the command's input.
    ///
    /// ```swift
    /// searchButton.bind(command: viewModel.search, input: { _ in viewModel.query })
    /// ```
    @discardableResult
    public func bind<Input, Output, Failure>(
        command: Command<Input, Output, Failure>,
        input: @escaping (Trigger) -> Input
    ) -> any Disposable {
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
        link.add(triggers.subscribe(next: { trigger in command.execute(input(trigger)) }, completed: { link.dispose() }))
        return link
    }
}
