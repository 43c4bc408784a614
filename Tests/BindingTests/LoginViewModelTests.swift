import Binding
import Testing
import TetherTesting

// The RAC tutorials' login form: `LoginViewModel` with `enableLoginSignal` and `LoginCommand` (the MVVM
// chapter), with the field colours and the failure label of the sign-in tutorial.
// The Objective-C original is about 45 lines of `initialBind`; this is the same model in Swift.
// These tests use Swift Testing and `expectMarbles` (the rest of the suite is XCTest): see the Testing
// article. Swift Testing runs tests in parallel, so they have no `ResourceCheckedTestCase` leak check;
// `theViewModelIsReleasedWithItsBindings` checks the release of the view model itself.

private enum FieldColour { case clear, yellow }

private final class Account: KeyPathObservable {
    @Observed var account = ""
    @Observed var pwd = ""
}

private final class LoginViewModel: KeyPathObservable {
    let account = Account()
    @Observed var usernameColour = FieldColour.yellow
    @Observed var passwordColour = FieldColour.yellow
    @Observed var isSigningIn = false  // the spinner
    @Observed var failureHidden = true  // "wrong user name or password"
    let enableLoginSignal: Signal<Bool, Never>
    let loginCommand: Command<Void, Bool, Never>

    init(signIn: @escaping (_ user: String, _ password: String) -> Signal<Bool, Never>) {
        let usernameValid = account.observe(\.account).map { $0.count > 3 }
        let passwordValid = account.observe(\.pwd).map { $0.count > 3 }
        enableLoginSignal = Signal.combineLatest(usernameValid, passwordValid).map { $0 && $1 }
        loginCommand = Command(enabled: enableLoginSignal) { [account] in signIn(account.account, account.pwd) }

        self[\.usernameColour] <~ usernameValid.map { $0 ? .clear : .yellow }
        self[\.passwordColour] <~ passwordValid.map { $0 ? .clear : .yellow }
        self[\.isSigningIn] <~ loginCommand.executing
        // Hidden when a sign-in starts (a retry hides the last failure), then shown if it failed.
        self[\.failureHidden] <~ loginCommand.executionSignals.flatMapLatest { $0.startWith(true) }
    }
}

/// The sign-in button of the form, tapped by a marble diagram.
private final class Button: CommandSource {
    let triggers: Signal<Void, Never>
    var isEnabled = true
    init(taps: some SignalConvertible<String, Never>) { triggers = taps.map { _ in } }
}

private let colours: [Character: FieldColour] = ["y": .yellow, "c": .clear]
private let flags: [Character: Bool] = ["t": true, "f": false]
private let usernames: [Character: String] = ["a": "ann", "b": "anna"]
private let passwords: [Character: String] = ["p": "pw", "q": "pass"]

@Suite struct LoginViewModelTests {
    @Test func fieldColoursAndTheLoginButtonFollowTheForm() throws {
        let scheduler = TestScheduler()
        let viewModel = LoginViewModel(signIn: { _, _ in .never })
        viewModel.account[\.account] <~ (try scheduler.hot("-a--b----", values: usernames))
        viewModel.account[\.pwd] <~ (try scheduler.hot("---p---q-", values: passwords))
        let usernameColour = viewModel.observe(\.usernameColour).record(on: scheduler)
        let passwordColour = viewModel.observe(\.passwordColour).record(on: scheduler)
        let enabled = viewModel.enableLoginSignal.distinctUntilChanged().record(on: scheduler)
        let button = viewModel.loginCommand.enabled.record(on: scheduler)

        scheduler.run()

        // username:        -a--b----        ann, anna
        // password:        ---p---q-        pw, pass
        expectMarbles(usernameColour, "yy--c", values: colours)
        expectMarbles(passwordColour, "y--y---c", values: colours)
        expectMarbles(enabled, "f------t", values: flags)
        expectMarbles(button, "f------t", values: flags)
    }

    @Test func signingInShowsTheSpinnerAndTheFailureUntilTheRetry() throws {
        let scheduler = TestScheduler()
        let attempts = [
            try scheduler.cold("--f|", values: flags),  // wrong password
            try scheduler.cold("--t|", values: flags),  // signed in
        ]
        var signIns: [String] = []
        let viewModel = LoginViewModel(signIn: { user, password in
            signIns.append("\(user):\(password)")
            return attempts[signIns.count - 1].signal
        })
        viewModel.account.account = "anna"
        viewModel.account.pwd = "pass"
        let button = Button(taps: try scheduler.hot("-x-x---x--"))
        button.bind(command: viewModel.loginCommand)
        let spinner = viewModel.observe(\.isSigningIn).record(on: scheduler)
        let failureHidden = viewModel.observe(\.failureHidden).record(on: scheduler)

        scheduler.run()

        // taps:            -x-x---x--       the second tap comes while signing in: the command ignores it
        // first sign-in:    --f|
        // second sign-in:          --t|
        expectMarbles(spinner, "ft--f--t--f", values: flags)
        expectMarbles(failureHidden, "tt-f---t-t", values: flags)
        #expect(signIns == ["anna:pass", "anna:pass"])
        #expect(button.isEnabled)
    }

    @Test func tappingWithAnInvalidFormSignsInNowhere() throws {
        var signIns = 0
        let viewModel = LoginViewModel(signIn: { _, _ in
            signIns += 1
            return Signal(value: true)
        })
        viewModel.account.account = "ann"  // too short
        viewModel.account.pwd = "pass"
        let result = viewModel.loginCommand.execute(()).record()
        #expect(result.failure == .disabled)
        #expect(signIns == 0)
        #expect(viewModel.failureHidden)
    }

    @Test func theViewModelIsReleasedWithItsBindings() throws {
        var viewModel: LoginViewModel? = LoginViewModel(signIn: { _, _ in Signal(value: true) })
        weak let weakViewModel = viewModel
        let enabled = viewModel!.loginCommand.enabled.record()
        viewModel!.account.account = "anna"
        viewModel = nil
        #expect(weakViewModel == nil, "its bindings and its command do not keep it alive")
        #expect(enabled.isCompleted, "the command's outputs complete with it")
    }
}
