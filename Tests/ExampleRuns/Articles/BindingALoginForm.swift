// Drives the article's login form as an app would: views bound to the view model, a sign-in service that
// answers on a background scheduler (the article's own test uses virtual time). Compiled into the
// article's example module by Scripts/run-doc-examples.sh (see Tests/ExampleRuns/README.md).
import DocExampleSupport
import Observable
import XCTest

/// The drivers of this file, for the runner.
nonisolated public func exampleDrivers() -> [DocExample] {
    [
        DocExample(file: #filePath, line: #line) { try await loginFormWelcomesTheUserWhenAWorkerSignsIn() }
    ]
}

/// The fields are typed, the button tapped; the service answers on its background scheduler and the
/// welcome message (bound with `<~`) arrives. In the main-actor build the view model, the views and this
/// code are main-actor isolated, and so is the observer's closure: it must run on the main actor.
func loginFormWelcomesTheUserWhenAWorkerSignsIn() async throws {
    let isolation: (any Actor)? = #isolation
    let isolatedToMainActor = isolation != nil
    let background = QueueScheduler(priority: .background)
    let viewModel = LoginViewModel(service: { _, password in
        Signal(value: password == "secret").delay(.milliseconds(10), on: background)
    })
    let usernameField = TextField()
    let passwordField = TextField()
    let signInButton = Button()
    usernameField.channel(\.text) <~> viewModel.form.channel(\.username)
    passwordField.channel(\.text) <~> viewModel.form.channel(\.password)
    signInButton[\.isEnabled] <~ viewModel.signIn.enabled
    signInButton.onTap = { viewModel.signIn.execute(()) }

    var offTheMainActor = 0
    let (messages, arrived) = AsyncStream.makeStream(of: String.self)
    let subscription = viewModel.observe(\.message).subscribe(next: { message in
        if isolatedToMainActor && !isOnMainQueue() { offTheMainActor += 1 }
        arrived.yield(message)
    })
    usernameField.text = "anna"
    passwordField.text = "secret"
    XCTAssertTrue(signInButton.isEnabled)
    signInButton.tap()
    for await message in messages where message == "Welcome!" { break }
    subscription.dispose()
    XCTAssertEqual(offTheMainActor, 0, "main-actor observer closures that ran on another thread")
}
