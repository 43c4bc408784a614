// The demo's view models (TetherDemoModels), driven as an app drives them: built and observed in the
// app's code, with values sent from background threads — a field bound to a subject that a
// `DispatchQueue.global()` worker sends into, services answering on a background `QueueScheduler`,
// the UI scheduler being the main queue. Not a test target: Scripts/run-doc-examples.sh compiles this
// file as one of its example modules, once with `-default-isolation MainActor` (an app target's
// default since Swift 6.2, where this code is main-actor isolated) and once without, and runs each check
// under its watchdog. A check waits for the values it expects to arrive; it never sleeps.
import Binding
import Dispatch
import DocExampleSupport
import Foundation
import Observable
import TetherDemoModels
import XCTest

/// The checks of this file, for the runner.
nonisolated public func docExamples() -> [DocExample] {
    [
        DocExample(file: #filePath, line: #line) { try await loginEnablesWhenTheFieldsAreTypedOnABackgroundQueue() },
        DocExample(file: #filePath, line: #line) { try await loginSignsInThroughTheBackgroundService() },
        DocExample(file: #filePath, line: #line) { try await searchShowsResultsForAQueryTypedOnABackgroundQueue() },
    ]
}

/// The username and password arrive from a worker queue through bindings (RAC's `RAC(vm, username) =
/// textSignal`); `enableLogin`, observed in the app's code, turns true. In the main-actor build this
/// code is main-actor isolated, and so is the observer's closure: it must run on the main actor,
/// whichever thread sent.
func loginEnablesWhenTheFieldsAreTypedOnABackgroundQueue() async throws {
    let isolation: (any Actor)? = #isolation
    let isolatedToMainActor = isolation != nil
    let login = LoginViewModel(
        service: FakeSignInService(latency: .milliseconds(10), scheduler: QueueScheduler(priority: .background)),
        ui: QueueScheduler.main)
    let usernames = Subject<String, Never>()
    let passwords = Subject<String, Never>()
    login.bind(\.username, to: usernames)
    login.bind(\.password, to: passwords)
    var seen: [Bool] = []
    var offTheMainActor = 0
    let (enabled, arrived) = AsyncStream.makeStream(of: Bool.self)
    let subscription = login.enableLogin.subscribe(next: { isEnabled in
        if isolatedToMainActor && !isOnMainQueue() { offTheMainActor += 1 }
        seen.append(isEnabled)
        arrived.yield(isEnabled)
    })
    DispatchQueue.global().async {
        usernames.send("tether")
        passwords.send("password")
    }
    for await isEnabled in enabled where isEnabled { break }
    subscription.dispose()
    XCTAssertEqual(seen.first, false)
    XCTAssertEqual(seen.last, true)
    XCTAssertEqual(login.username, "tether")
    XCTAssertEqual(offTheMainActor, 0, "main-actor observer closures that ran on another thread")
}

/// The sign-in command's work runs on the service's background scheduler and its result comes back
/// on the UI scheduler (the main queue), where the app's observer records it.
func loginSignsInThroughTheBackgroundService() async throws {
    let login = LoginViewModel(
        service: FakeSignInService(latency: .milliseconds(10), scheduler: QueueScheduler(priority: .background)),
        ui: QueueScheduler.main)
    login.username = FakeSignInService.validUsername
    login.password = FakeSignInService.validPassword
    var users: [User] = []
    let (results, arrived) = AsyncStream.makeStream(of: User.self)
    login.signIn.execute(())
        .subscribe(
            next: { user in
                dispatchPrecondition(condition: .onQueue(.main))
                users.append(user)
                arrived.yield(user)
            },
            error: { failure in XCTFail("sign-in failed: \(failure)") })
    for await _ in results { break }
    XCTAssertEqual(users, [User(name: FakeSignInService.validUsername)])
}

/// A query arrives from a worker queue through a binding; the debounce runs on the main queue, the search
/// on a background scheduler, and the results are bound back on the main queue.
func searchShowsResultsForAQueryTypedOnABackgroundQueue() async throws {
    let search = SearchViewModel(
        service: CitySearchService(latency: .milliseconds(10), scheduler: QueueScheduler(priority: .background)),
        ui: QueueScheduler.main)
    let queries = Subject<String, Never>()
    search.bind(\.query, to: queries)
    var shown: [SearchResults?] = []
    let (results, arrived) = AsyncStream.makeStream(of: SearchResults?.self)
    let subscription = search.observe(\.results).subscribe(next: { results in
        shown.append(results)
        arrived.yield(results)
    })
    DispatchQueue.global().async { queries.send("par") }
    for await results in results where results != nil { break }
    subscription.dispose()
    // The search's completion is counted on the background scheduler, after its results went on.
    let stats = search.stats
    await waitUntil { stats.value.completed == 1 }
    XCTAssertEqual(shown.last??.query, "par")
    XCTAssertEqual(shown.last??.matches.contains("Paris, France"), true)
    XCTAssertEqual(search.stats.value.completed, 1)
}
