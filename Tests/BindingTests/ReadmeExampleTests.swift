import Binding
import Testing
import TetherTesting
import XCTest

// The README's example, verbatim: if this stops compiling or passing, the README is wrong.

private final class LoginViewModel: KeyPathObservable {
    @Observed var username = ""
    @Observed var password = ""
    @Observed private(set) var isSigningIn = false
    private let service: (String, String) -> Signal<Bool, Never>

    // Derived from this object's own @Observed properties: `lazy var`, because a `let` cannot call
    // observe(_:) in init (self is usable only once every stored property is set). init builds them.
    private(set) lazy var canSignIn = Signal.combineLatest(
        observe(\.username).map { $0.count >= 3 },  // RACObserve
        observe(\.password).map { $0.count >= 6 }
    ).map { $0 && $1 }
    private(set) lazy var signIn = Command(enabled: canSignIn) { [weak self] () -> Signal<Bool, Never> in
        guard let self else { return .empty }
        return service(username, password)
    }

    init(service: @escaping (String, String) -> Signal<Bool, Never>) {
        self.service = service
        self[\.isSigningIn] <~ signIn.executing  // RAC(self, isSigningIn) = …
    }
}

final class ReadmeExampleTests: ResourceCheckedTestCase {
    func testReadmeLoginViewModelShowsTheSpinnerWhileSigningIn() {
        let scheduler = TestScheduler()
        let vm = LoginViewModel(service: { _, _ in Signal(value: true).delay(.seconds(2), on: scheduler) })
        let spinner = vm.observe(\.isSigningIn).record(on: scheduler)
        vm.username = "ann"
        vm.password = "secret"
        vm.signIn.execute(())
        scheduler.run()
        XCTAssertEqual(spinner.values, [false, true, false])
    }

    func testReadmeLoginViewModelIsReleasedAndItsCommandOutlivesItSafely() {
        weak var released: LoginViewModel?
        let signIn: Command<Void, Bool, Never>
        do {
            let vm = LoginViewModel(service: { _, _ in Signal(value: true) })
            released = vm
            signIn = vm.signIn  // a button's binding keeps the command like this
        }
        XCTAssertNil(released, "the lazy signals and the command hold the view model weakly")
        XCTAssertEqual(signIn.execute(()).record().values, [], "an execution after it is gone does nothing")
    }

    func testReadmeLoginViewModelEnablesSignInOnlyForValidInput() {
        let vm = LoginViewModel(service: { _, _ in Signal(value: true) })
        var enabled: [Bool] = []
        vm.canSignIn.subscribe(next: { enabled.append($0) })
        vm.username = "an"
        vm.username = "ann"
        vm.password = "secret"
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
        viewModel[\.username] <~ (try scheduler.hot("-u", values: ["u": "ann"]))
        viewModel[\.password] <~ (try scheduler.hot("--p", values: ["p": "secret"]))
        scheduler.advance(by: .seconds(3))
        viewModel.signIn.execute(())
        scheduler.run()
        expectMarbles(enabled, "fft", values: flags)  // valid once both fields are
        expectMarbles(spinner, "f--t-f", values: flags)  // on at 3 s, off at 5 s
    }
}
