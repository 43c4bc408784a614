// Drives the README's `LoginViewModel` as an app would: with a sign-in service that answers on a
// background scheduler (the README's own test uses virtual time). Compiled into the README's example
// module by Scripts/run-doc-examples.sh (see Tests/ExampleRuns/README.md).
import DocExampleSupport
import Observable
import XCTest

/// The drivers of this file, for the runner.
nonisolated public func exampleDrivers() -> [DocExample] {
    [
        DocExample(file: #filePath, line: #line) { try await readmeLoginShowsTheSpinnerWhileAWorkerSignsIn() }
    ]
}

/// The spinner (`isSigningIn`, bound with `<~` to the command's `executing`) turns on, then off when the
/// service answers on its background scheduler. In the main-actor build the view model and this code are
/// main-actor isolated, and so is the observer's closure: it must run on the main actor.
func readmeLoginShowsTheSpinnerWhileAWorkerSignsIn() async throws {
    let isolation: (any Actor)? = #isolation
    let isolatedToMainActor = isolation != nil
    let background = QueueScheduler(priority: .background)
    let vm = LoginViewModel(service: { _, _ in Signal(value: true).delay(.milliseconds(10), on: background) })
    var spinner: [Bool] = []
    var offTheMainActor = 0
    let (changes, changed) = AsyncStream.makeStream(of: Bool.self)
    let subscription = vm.observe(\.isSigningIn).subscribe(next: { isSigningIn in
        if isolatedToMainActor && !isOnMainQueue() { offTheMainActor += 1 }
        spinner.append(isSigningIn)
        changed.yield(isSigningIn)
    })
    vm.username = "ann"
    vm.password = "secret"
    vm.signIn.execute(())
    var seen = 0
    for await _ in changes {
        seen += 1
        if seen == 3 { break }
    }
    subscription.dispose()
    XCTAssertEqual(spinner, [false, true, false])
    XCTAssertEqual(offTheMainActor, 0, "main-actor observer closures that ran on another thread")
}
