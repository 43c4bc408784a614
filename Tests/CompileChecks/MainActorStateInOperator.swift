// expect-error: call to main actor-isolated instance method 'validate' in a synchronous nonisolated context
// swiftc-flags: -default-isolation MainActor
// Issue 29: the RAC habit `textSignal.map { self.validate($0) }` in a view model of a module with default
// main-actor isolation. The operator may run the closure on any thread, so reading main-actor state there
// is refused at compile time (it trapped at run time before): make `validate` `nonisolated` (it reads no
// main-actor state), or do the main-actor work in `subscribe`/`bind`, which run on the caller's actor.
import Observable

final class LoginViewModel {
    var minimumLength = 3
    var usernameValid: Signal<Bool, Never>?

    func connect(username: Subject<String, Never>) {
        usernameValid = username.map { self.validate($0) }
    }

    func validate(_ text: String) -> Bool { text.count >= minimumLength }
}
