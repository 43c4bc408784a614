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
final class LoginViewModel: KeyPathObservable {
    /// The RAC tutorials' `isValidUsername:` / `isValidPassword:` (length > 3).
    static let minimumLength = 4

    @Observed var username = ""
    @Observed var password = ""

    let service: FakeSignInService
    private let ui: any Scheduler

    init(service: FakeSignInService, ui: any Scheduler) {
        self.service = service
        self.ui = ui
    }

    /// Whether the username is valid: the current value, then each change. Named for the debugging tools
    /// (`tether-demo --graph`, `--trace`).
    var usernameIsValid: Signal<Bool, Never> {
        observe(\.username).named("login.username").map(Self.isValid).named("login.usernameValid")
    }

    /// Whether the password is valid: the current value, then each change.
    var passwordIsValid: Signal<Bool, Never> {
        observe(\.password).named("login.password").map(Self.isValid).named("login.passwordValid")
    }

    /// Both fields valid (the RAC tutorials' `signUpActiveSignal`): `combineLatest` of the two validities.
    var enableLogin: Signal<Bool, Never> {
        Signal.combineLatest(usernameIsValid, passwordIsValid).map { $0 && $1 }.named("login.enabled")
    }

    /// Signs in with the current fields (the RAC tutorials' `LoginCommand`). Enabled while ``enableLogin``
    /// and not already signing in; its work runs on the service's scheduler and reports back on
    /// the UI scheduler, so `executing`, `enabled`, `errors` and the results all arrive there.
    private(set) lazy var signIn: Command<Void, User, SignInError> = Command(enabled: enableLogin) {
        [weak self] in
        guard let self else { return Signal.empty }
        return self.service.signIn(username: self.username, password: self.password).deliver(on: self.ui)
    }

    static func isValid(_ text: String) -> Bool {
        text.count >= minimumLength
    }
}
