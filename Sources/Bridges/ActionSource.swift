import Observable

/// A class that sends actions through an ``ActionRegistry`` it owns — adopt it to get target-action
/// without selectors on your control: `addAction(for:_:)`, `sendActions(for:)`, `signal(for:)`,
/// `isEnabled`.
///
/// Every action source is a `CommandSource` (from Observable): its primary action triggers a bound `Command`, and the
/// command's `enabled` drives ``isEnabled``.
///
/// The only requirement is the registry. For a non-final class, type it with the class that adopts the
/// protocol; subclasses inherit it (their sender is typed as that class).
///
/// ```swift
/// final class TextField: ActionSource {
///     let actions = ActionRegistry<TextField>()
///     var text = "" {
///         didSet { sendActions(for: .editingChanged) }
///     }
/// }
///
/// let field = TextField()
/// field.signal(for: .editingChanged).subscribe(next: { print($0.text) })
/// field.text = "ada"   // prints ada
/// ```
public protocol ActionSource: CommandSource where Trigger == ActionSender {
    /// The type the actions receive as their sender (the adopting class).
    associatedtype ActionSender: AnyObject = Self

    /// The registry holding this control's actions.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let actions = ActionRegistry<Button>()
    /// ```
    var actions: ActionRegistry<ActionSender> { get }

    /// The sender passed to actions: `self` (provided when `ActionSender` is the adopting class).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// print(button.actionSender === button)   // true
    /// ```
    var actionSender: ActionSender { get }
}

extension ActionSource where ActionSender == Self {
    /// `self`.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// print(button.actionSender === button)   // true
    /// ```
    public var actionSender: Self { self }
}

extension ActionSource {
    /// Registers `action` for any of `events` (see `ActionRegistry.addAction(for:_:)`).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// let handle = button.addAction(for: .primaryAction) { sender, events in print(events) }
    /// ```
    @discardableResult
    public func addAction(
        for events: ControlEvents, isolation: isolated (any Actor)? = #isolation,
        _ action: @escaping (ActionSender, ControlEvents) -> Void
    ) -> any Disposable {
        actions.addAction(for: events, isolation: isolation, action)
    }

    /// Registers `action` for any of `events`.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.addAction(for: .primaryAction) { sender in print("tapped") }
    /// ```
    @discardableResult
    public func addAction(
        for events: ControlEvents, isolation: isolated (any Actor)? = #isolation,
        _ action: @escaping (ActionSender) -> Void
    ) -> any Disposable {
        actions.addAction(for: events, isolation: isolation, action)
    }

    /// Runs the actions registered for any of `events`, with this control as the sender.
    ///
    /// ```swift
    /// final class Button: ActionSource {
    ///     let actions = ActionRegistry<Button>()
    ///     func click() { sendActions(for: .primaryAction) }
    /// }
    /// ```
    public func sendActions(for events: ControlEvents) {
        actions.sendActions(for: events, from: actionSender)
    }

    /// This control each time any of `events` is sent; completes when the control (and so its registry)
    /// is deinitialized.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.signal(for: .primaryAction).subscribe(next: { _ in print("submit") })
    /// ```
    public func signal(for events: ControlEvents) -> Signal<ActionSender, Never> {
        actions.signal(for: events)
    }

    /// Whether the control fires its actions (forwarded to the registry's
    /// ``ActionRegistry/isEnabled``).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.isEnabled = false
    /// ```
    public var isEnabled: Bool {
        get { actions.isEnabled }
        set { actions.isEnabled = newValue }
    }

    /// The primary action as a signal: what a bound `Command` executes on (`CommandSource`).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let signIn = Command { print("signing in") }
    /// let signInButton = Button()
    /// signInButton.bind(command: signIn, input: { _ in })   // (module Binding)
    /// signInButton.sendActions(for: .primaryAction)          // prints signing in — before this returns
    /// ```
    public var triggers: Signal<ActionSender, Never> {
        signal(for: .primaryAction)
    }
}
