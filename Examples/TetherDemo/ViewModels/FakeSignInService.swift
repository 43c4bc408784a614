import Observable

/// Who signed in.
struct User: Equatable, Sendable {
    var name: String
}

/// Why signing in failed.
enum SignInError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongCredentials

    var description: String {
        switch self {
        case .wrongCredentials: return "Wrong username or password."
        }
    }
}

/// The RAC tutorials' `RWDummySignInService`, as a signal: answers after a delay on its own scheduler
/// (a background `QueueScheduler` in the terminal, virtual time in scripts).
///
/// ```swift
/// let service = FakeSignInService(scheduler: QueueScheduler(priority: .background))
/// service.signIn(username: "tether", password: "password")   // next(User("tether")), completed — after 800 ms
/// ```
struct FakeSignInService: Sendable {
    /// The only account (shown on the login screen).
    static let validUsername = "tether"
    static let validPassword = "password"

    var latency: Duration = .milliseconds(800)
    let scheduler: any Scheduler

    /// Checks the credentials after ``latency``; disposing the subscription cancels the check.
    func signIn(username: String, password: String) -> Signal<User, SignInError> {
        let latency = latency
        let scheduler = scheduler
        return Signal<User, SignInError> { observer in
            scheduler.schedule(after: latency) {
                if username == Self.validUsername && password == Self.validPassword {
                    observer.send(User(name: username))
                    observer.sendCompleted()
                } else {
                    observer.sendError(.wrongCredentials)
                }
            }
        }
    }
}
