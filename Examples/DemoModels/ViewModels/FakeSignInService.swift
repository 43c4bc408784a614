import Observable

/// Who signed in.
public struct User: Equatable, Sendable {
    /// The user's name.
    public var name: String

    /// Creates a user named `name`.
    public init(name: String) { self.name = name }
}

/// Why signing in failed.
public enum SignInError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongCredentials

    /// The message shown to the user.
    public var description: String {
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
public struct FakeSignInService: Sendable {
    /// The only account (shown on the login screen).
    public static let validUsername = "tether"
    /// The only account's password.
    public static let validPassword = "password"

    /// How long a sign-in takes.
    public var latency: Duration = .milliseconds(800)
    /// Where the answers are sent (a background queue, or virtual time).
    public let scheduler: any Scheduler

    /// A service answering after `latency` on `scheduler`.
    public init(latency: Duration = .milliseconds(800), scheduler: any Scheduler) {
        self.latency = latency
        self.scheduler = scheduler
    }

    /// Checks the credentials after ``latency``; disposing the subscription cancels the check.
    public func signIn(username: String, password: String) -> Signal<User, SignInError> {
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
