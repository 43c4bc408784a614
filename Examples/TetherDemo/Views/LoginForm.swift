import Binding
import Observable
import TetherDemoModels

/// What the login screen shows besides the fields' text (which the view model holds): the state the
/// bindings write. A plain class, bound like a `UIView` in the RAC tutorials.
final class LoginForm: BindingTarget {
    /// The focusable items, in Tab order.
    enum Item: CaseIterable, Sendable {
        case username
        case password
        case signIn
    }

    /// A line under the button.
    enum Message: Equatable, Sendable {
        case hint(String)
        case failure(String)
        case success(String)
    }

    var usernameTint = FieldTint.invalid
    var passwordTint = FieldTint.invalid
    /// The spinner's frame while the sign-in command is executing.
    var spinnerFrame: Int?
    var message: Message?
    let signInButton = Button(title: "Sign in")

    /// The RAC tutorials' `bindModel`: every line is one `RAC(view, property) = signal`. Each signal is metered,
    /// so the status line counts it and the screen redraws.
    func bind(to login: LoginViewModel, ui: any Scheduler, meter: EventMeter) -> any Disposable {
        let command = login.signIn
        let bindings: [any Disposable] = [
            bind(\.usernameTint, to: login.usernameIsValid.map(FieldTint.init(isValid:)).metered(meter)),
            bind(\.passwordTint, to: login.passwordIsValid.map(FieldTint.init(isValid:)).metered(meter)),
            signInButton.bind(command: command, input: { _ in () }),
            bind(
                \.spinnerFrame,
                to: command.executing.flatMapLatest { executing in
                    executing
                        ? Signal.interval(.milliseconds(100), on: ui).map { Optional($0) }.startWith(0)
                        : Signal(value: nil)
                }.metered(meter)),
            bind(
                \.message,
                to: Signal.merge([
                    command.executing.filter { $0 }.map { _ in Message?.none },
                    command.errors.map { Optional(Message.failure($0.description)) },
                    command.executionSignals.flatten().map { Optional(Message.success("Signed in as \($0.name).")) },
                ]).metered(meter)),
            command.enabled.metered(meter).subscribe(),
        ]
        return CompositeDisposable(bindings)
    }
}
