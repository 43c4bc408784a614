import Binding
import Observable
import XCTest

import TetherDemoModels

final class LoginViewModelTests: XCTestCase {
    private let clock = TestScheduler()

    private func makeViewModel() -> LoginViewModel {
        LoginViewModel(service: FakeSignInService(scheduler: clock), ui: clock)
    }

    func testEnableLoginCombinesTheLatestValidityOfBothFields() {
        let login = makeViewModel()
        var enabled: [Bool] = []
        let subscription = login.enableLogin.subscribe(next: { enabled.append($0) })
        defer { subscription.dispose() }
        login.username = "tet"
        login.username = "tether"
        login.password = "pass"
        login.password = "pas"
        XCTAssertEqual(enabled, [false, false, false, true, false])
    }

    func testSignInWithValidCredentialsSendsTheUserAfterTheServiceLatency() {
        let login = makeViewModel()
        var executing: [Bool] = []
        var users: [User] = []
        let subscriptions = CompositeDisposable([
            login.signIn.executing.subscribe(next: { executing.append($0) }),
            login.signIn.executionSignals.flatten().subscribe(next: { users.append($0) }),
        ])
        defer { subscriptions.dispose() }
        login.username = FakeSignInService.validUsername
        login.password = FakeSignInService.validPassword
        login.signIn.execute(())
        XCTAssertEqual(executing, [false, true])
        clock.advance(by: .milliseconds(799))
        XCTAssertEqual(users, [])
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(users, [User(name: "tether")])
        XCTAssertEqual(executing, [false, true, false])
    }

    func testAWrongPasswordEndsOnErrorsAndReenablesTheCommand() {
        let login = makeViewModel()
        var errors: [SignInError] = []
        var enabled: [Bool] = []
        let subscriptions = CompositeDisposable([
            login.signIn.errors.subscribe(next: { errors.append($0) }),
            login.signIn.enabled.subscribe(next: { enabled.append($0) }),
        ])
        defer { subscriptions.dispose() }
        login.username = "tether"
        login.password = "hunter2"
        login.signIn.execute(())
        clock.advance(by: .seconds(1))
        XCTAssertEqual(errors, [.wrongCredentials])
        XCTAssertEqual(enabled, [false, true, false, true])
    }

    func testExecutingWithInvalidFieldsFailsWithDisabledAndStartsNothing() {
        let login = makeViewModel()
        login.username = "ab"
        var failure: CommandError<SignInError>?
        login.signIn.execute(()).subscribe(error: { failure = $0 })
        XCTAssertEqual(failure, .disabled)
        XCTAssertEqual(clock.pendingCount, 0, "the service was not called")
    }

    func testTheViewModelIsReleasedWithItsCommandAndObservations() {
        weak var released: LoginViewModel?
        var enabled: [Bool] = []
        var completed = false
        do {
            let login = makeViewModel()
            released = login
            login.signIn.enabled.subscribe(next: { enabled.append($0) }, completed: { completed = true })
        }
        XCTAssertNil(released)
        XCTAssertEqual(enabled, [false])
        XCTAssertTrue(completed, "the command's outputs complete when it goes away")
    }
}
