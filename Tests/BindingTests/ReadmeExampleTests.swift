import Binding
import Testing
import TetherTesting
import XCTest

// The README's example, verbatim: if this stops compiling or passing, the README is wrong.

private final class LoginForm: KeyPathObservable {
    @Observed var username = ""
    @Observed var password = ""
}

private final class LoginViewModel: KeyPathObservable {
    let form = LoginForm()
    @Observed var isSigningIn = false
    let canSignIn: Signal<Bool, Never>
    let signIn: Command<Void, Bool, Never>

    init(service: @escaping (String, String) -> Signal<Bool, Never>) {
        let validUsername = form.observe(\.username).map { $0.count >= 3 }  // RACObserve
        let validPassword = form.observe(\.password).map { $0.count >= 6 }
        canSignIn = Signal.combineLatest(validUsername, validPassword).map { $0 && $1 }
        signIn = Command(enabled: canSignIn) { [form] in service(form.username, form.password) }
        self[\.isSigningIn] <~ signIn.executing  // RAC(self, isSigningIn) = …
    }
}

final class ReadmeExampleTests: ResourceCheckedTestCase {
    func testReadmeLoginViewModelShowsTheSpinnerWhileSigningIn() {
        let scheduler = TestScheduler()
        let vm = LoginViewModel(service: { _, _ in Signal(value: true).delay(.seconds(2), on: scheduler) })
        let spinner = vm.observe(\.isSigningIn).record(on: scheduler)
        vm.form.username = "ann"
        vm.form.password = "secret"
        vm.signIn.execute(())
        scheduler.run()
        XCTAssertEqual(spinner.values, [false, true, false])
    }

    func testReadmeLoginViewModelEnablesSignInOnlyForValidInput() {
        let vm = LoginViewModel(service: { _, _ in Signal(value: true) })
        var enabled: [Bool] = []
        vm.canSignIn.subscribe(next: { enabled.append($0) })
        vm.form.username = "an"
        vm.form.username = "ann"
        vm.form.password = "secret"
        XCTAssertEqual(enabled, [false, false, false, true])
    }
}

/// The README's view model tested with Swift Testing, as the "Testing on Virtual Time" article shows it.
@Suite struct ReadmeExampleSwiftTestingTests {
    @Test func signInEnablesWithValidInputAndShowsTheSpinnerWhileWaiting() throws {
        let scheduler = TestScheduler()
        let viewModel = LoginViewModel(service: { _, _ in Signal(value: true).delay(.seconds(2), on: scheduler) })
        let enabled = viewModel.canSignIn.record(on: scheduler)
        let spinner = viewModel.observe(\.isSigningIn).record(on: scheduler)
        let flags: [Character: Bool] = ["t": true, "f": false]
        viewModel.form[\.username] <~ (try scheduler.hot("-u", values: ["u": "ann"]))
        viewModel.form[\.password] <~ (try scheduler.hot("--p", values: ["p": "secret"]))
        scheduler.advance(by: .seconds(3))
        viewModel.signIn.execute(())
        scheduler.run()
        expectMarbles(enabled, "fft", values: flags)  // valid once both fields are
        expectMarbles(spinner, "f--t-f", values: flags)  // on at 3 s, off at 5 s
    }
}
