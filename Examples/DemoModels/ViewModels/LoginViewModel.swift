import Binding
import Observable

/// The RAC tutorials' login form (their MVVM chapter's `LoginViewModel` and the RAC tutorial's sign-in
/// screen), as a view model: two observed fields, their validity, whether signing in is possible,
/// and the sign-in command.
///
/// ```swift
/// let login = LoginViewModel(service: FakeSignInService(scheduler: background), ui: QueueScheduler.main)
/// login.enableLogin.subscribe(next: { print("enabled:", $0) })   // enabled: false
/// login.username = "tether"
/// login.password = "password"                                      // enabled: true
/// login.signIn.execute(())                                         // 800 ms later: next(User("tether"))
/// ```
public final class LoginViewModel: KeyPathObservable {
    /// The RAC tutorials' `isValidUsername:` / `isValidPassword:` (length > 3).
    public static let minimumLength = 4

    /// The username field's text.
    @Observed public var username = ""
    /// The password field's text.
    @Observed public var password = ""

    /// The sign-in service the command calls.
    public let service: FakeSignInService
    private let ui: any Scheduler

    /// A form using `service`, delivering the command's results on `ui`.
    public init(service: FakeSignInService, ui: any Scheduler) {
        self.service = service
        self.ui = ui
    }

    /// Whether the username is valid: the current value, then each change.
    public var usernameIsValid: Signal<Bool, Never> {
        observe(\.username).map(Self.isValid)
    }

    /// Whether the password is valid: the current value, then each change.
    public var passwordIsValid: Signal<Bool, Never> {
        observe(\.password).map(Self.isValid)
    }

    /// Both fields valid (the RAC tutorials' `signUpActiveSignal`): `combineLatest` of the two validities.
    public var enableLogin: Signal<Bool, Never> {
        Signal.combineLatest(usernameIsValid, passwordIsValid).map { $0 && $1 }
    }

    /// Signs in with the current fields (the RAC tutorials' `LoginCommand`). Enabled while ``enableLogin``
    /// and not already signing in; its work runs on the service's scheduler and reports back on
    /// the UI scheduler, so `executing`, `enabled`, `errors` and the results all arrive there.
    public private(set) lazy var signIn: Command<Void, User, SignInError> = Command(enabled: enableLogin) {
        [weak self] in
        guard let self else { return Signal.empty }
        return self.service.signIn(username: self.username, password: self.password).deliver(on: self.ui)
    }

    /// Whether a field's text is long enough (``minimumLength`` characters).
    public static func isValid(_ text: String) -> Bool {
        text.count >= minimumLength
    }
}
