import Bridges
import Observable
import TetherDemoModels

/// The demo's state and behaviour, independent of where keys come from and where frames go: the
/// terminal runner and the script runner both drive it. Lives on the UI scheduler.
final class DemoApp {
    let environment: DemoEnvironment
    let login: LoginViewModel
    let search: SearchViewModel
    let loginForm = LoginForm()
    let searchPanel = SearchPanel()
    let meter = EventMeter()

    private(set) var focus = Focus.username
    private(set) var welcomedUser: User?
    private(set) var size: TerminalSize
    private(set) var lastKey: Key?
    /// Set by Ctrl-C; the runner then shuts down.
    private(set) var isFinished = false
    let startTime: Duration

    private let subscriptions = CompositeDisposable()
    private let welcomeTimer = SerialDisposable()

    init(environment: DemoEnvironment, size: TerminalSize) {
        self.environment = environment
        self.size = size
        startTime = environment.ui.now
        let signInService = FakeSignInService(latency: environment.signInLatency, scheduler: environment.background)
        let searchService = CitySearchService(latency: environment.searchLatency, scheduler: environment.background)
        login = LoginViewModel(service: signInService, ui: environment.ui)
        search = SearchViewModel(service: searchService, ui: environment.ui)

        let ui = environment.ui
        let meter = meter
        subscriptions.add(loginForm.bind(to: login, ui: ui, meter: meter))
        subscriptions.add(searchPanel.bind(to: search, ui: ui, meter: meter))
        // After a successful sign-in: the welcome screen, then the search.
        subscriptions.add(
            login.signIn.executionSignals.flatten().subscribe(next: { [weak self] user in
                self?.welcome(user)
            }))
        // The status line's clock: events per second, once a second.
        subscriptions.add(
            Signal.interval(.seconds(1), on: ui).subscribe(next: { _ in
                meter.tick()
                meter.record()
            }))
        subscriptions.add(welcomeTimer)
    }

    deinit {
        subscriptions.dispose()
    }

    var screen: Screen {
        if let welcomedUser { return .welcome(welcomedUser) }
        return focus.screen
    }

    /// Time since the app started, on the UI scheduler's clock (virtual in scripts).
    var uptime: Duration { environment.ui.now - startTime }

    /// The terminal changed size (SIGWINCH) or a script said `resize`.
    func resize(to newSize: TerminalSize) {
        size = newSize
        meter.record()
    }

    /// One keystroke.
    func handle(_ key: Key) {
        lastKey = key
        defer { meter.record() }
        if key == .interrupt {
            isFinished = true
            return
        }
        if welcomedUser != nil {
            if key == .enter || key == .tab || key == .escape { openSearch() }
            return
        }
        switch key {
        case .tab, .down: focus = focus.next
        case .shiftTab, .up: focus = focus.previous
        case .left: focus = .username
        case .right: focus = .searchField
        case .character(let character): type(character)
        case .backspace: deleteBackward()
        case .enter: submit()
        case .escape: if focus == .searchField { search.query = "" }
        case .interrupt, .unknown: break
        }
    }

    private func type(_ character: Character) {
        clearHint()
        switch focus {
        case .username: login.username.append(character)
        case .password: login.password.append(character)
        case .searchField: search.query.append(character)
        case .signInButton: if character == " " { loginForm.signInButton.press() }
        }
    }

    private func deleteBackward() {
        clearHint()
        switch focus {
        case .username: if !login.username.isEmpty { login.username.removeLast() }
        case .password: if !login.password.isEmpty { login.password.removeLast() }
        case .searchField: if !search.query.isEmpty { search.query.removeLast() }
        case .signInButton: break
        }
    }

    /// A hint about a disabled sign-in is stale once the user edits; failures stay until the next attempt.
    private func clearHint() {
        if case .hint = loginForm.message { loginForm.message = nil }
    }

    private func submit() {
        switch focus {
        case .username:
            focus = .password
        case .password:
            // Enter in the password field executes the command directly; a disabled command answers
            // with `.disabled` and does nothing else.
            login.signIn.execute(()).subscribe(error: { [weak self] error in
                guard let self, case .disabled = error else { return }
                self.loginForm.message = .hint(
                    self.login.signIn.isExecuting
                        ? "Already signing in."
                        : "Sign-in is disabled until both fields have \(LoginViewModel.minimumLength)+ characters.")
                self.meter.record()
            })
        case .signInButton:
            // The button goes through its action registry; a disabled button drops the press.
            loginForm.signInButton.press()
        case .searchField:
            break
        }
    }

    private func welcome(_ user: User) {
        welcomedUser = user
        welcomeTimer.inner = Signal.timer(after: environment.welcomeDuration, on: environment.ui)
            .subscribe(next: { [weak self] in self?.openSearch() })
        meter.record()
    }

    private func openSearch() {
        welcomeTimer.inner = nil
        welcomedUser = nil
        focus = .searchField
        meter.record()
    }
}
