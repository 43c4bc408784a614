/// The precedence of `<~` and `<~>`: above assignment, so `let binding = view[\.title] <~ signal` reads
/// as expected; right-associative, so `a <~ b <~ c` is not a thing you can write by accident.
///
/// ```swift
/// final class View: BindingTarget { var title = "" }
/// let view = View()
/// let binding = view[\.title] <~ Signal(value: "Welcome")
/// ```
precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
}

/// One-way binding: the left side (a property slot, a `MutableProperty`, a channel terminal) takes every
/// value of the signal on the right. `view[\.title] <~ viewModel.title` is
/// `view.bind(\.title, to: viewModel.title)`.
///
/// ```swift
/// final class Button: BindingTarget { var isEnabled = true }
/// let loginButton = Button()
/// let login = Command { print("signing in") }
/// loginButton[\.isEnabled] <~ login.enabled
/// ```
infix operator <~ : BindingPrecedence

/// Two-way binding of channel terminals: each side follows the other; the left side takes the right
/// side's value first. `a <~> b` is `a.bind(to: b)`.
///
/// ```swift
/// final class Settings: KeyPathObservable { @Observed var volume = 5 }
/// final class Slider: KeyPathObservable { @Observed var value = 0 }
/// let settings = Settings(), slider = Slider()
/// settings.channel(\.volume) <~> slider.channel(\.value)   // volume takes the slider's value first
/// ```
infix operator <~> : BindingPrecedence
