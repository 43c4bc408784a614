// expect-error: 'bind(command:)' is unavailable: the command's Input is not this control's Trigger: pass `input:`
// `button.bind(command:)` with a command whose input is not the control names `input:`, not a
// conversion error between Command<String, …> and Command<Button, …>.
import Binding
import Bridges
import Observable

final class Button: ActionSource {
    let actions = ActionRegistry<Button>()
}

func bindSearch(button: Button, query: MutableProperty<String>) {
    let search = Command { (text: String) in print("searching", text) }
    button.bind(command: search)
}
