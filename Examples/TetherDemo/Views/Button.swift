import Binding
import Bridges
import Observable

/// A terminal button: a control with selector-less target-action (Bridges' ``ActionSource``) that a
/// command drives (Binding's `CommandSource`: `button.bind(command:)` is RAC's `button.rac_command = …`).
///
/// Pressing it sends `.primaryAction`; while it is disabled the registry drops the press, as a
/// disabled `UIButton` would.
///
/// ```swift
/// let button = Button(title: "Sign in")
/// button.bind(command: viewModel.signIn)   // enabled follows the command; presses execute it
/// button.press()
/// ```
final class Button: ActionSource, CommandSource {
    let actions = ActionRegistry<Button>()
    let title: String

    init(title: String) {
        self.title = title
    }

    /// What a press sends to a bound command.
    var triggers: Signal<Void, Never> {
        signal(for: .primaryAction).map { _ in () }
    }

    /// The user pressed Enter on the button.
    func press() {
        sendActions(for: [.touchUpInside, .primaryAction])
    }
}
