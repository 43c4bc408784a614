import Binding
import Bridges
import Observable

/// A terminal button: a control with selector-less target-action (Bridges' ``ActionSource``), which makes
/// it a `CommandSource` too — `button.bind(command:input:)` is RAC's `button.rac_command = …`: its
/// enabled state follows the command's `enabled`, and its primary action executes the command.
///
/// Pressing it sends `.touchUpInside` and `.primaryAction`; while it is disabled the registry drops the
/// press, as a disabled `UIButton` would.
///
/// ```swift
/// let button = Button(title: "Sign in")
/// button.bind(command: viewModel.signIn, input: { _ in () })
/// button.press()
/// ```
final class Button: ActionSource {
    let actions = ActionRegistry<Button>()
    let title: String

    init(title: String) {
        self.title = title
    }

    /// The user pressed Enter (or Space) on the button.
    func press() {
        sendActions(for: [.touchUpInside, .primaryAction])
    }
}
