/// Why an execution of a ``Command`` failed: the command was not enabled, or the work failed.
///
/// RAC reported the first case as `RACCommandErrorNotEnabled` in an `NSError`; here it is a case you
/// can switch over, and the work's own failure keeps its type.
///
/// ```swift
/// enum LoginError: Error { case wrongPassword }
/// let command = Command { (password: String) async throws(LoginError) -> Bool in password == "secret" }
/// command.execute("secret").subscribe(error: { error in
///     switch error {
///     case .disabled: print("busy, try again later")
///     case .failed(let failure): print("sign-in failed:", failure)
///     }
/// })
/// ```
public enum CommandError<Failure: Error>: Error {
    /// The command was not enabled when `execute(_:)` was called; nothing was started.
    case disabled
    /// The execution's work failed with this error.
    case failed(Failure)

    /// The work's failure, or `nil` for ``disabled``.
    ///
    /// ```swift
    /// enum LoginError: Error { case wrongPassword }
    /// CommandError<LoginError>.failed(.wrongPassword).failure   // .wrongPassword
    /// ```
    public var failure: Failure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }
}

extension CommandError: Equatable where Failure: Equatable {}

extension CommandError: Hashable where Failure: Hashable {}

extension CommandError: CustomStringConvertible {
    /// A readable explanation.
    ///
    /// ```swift
    /// print(CommandError<Never>.disabled)   // The command is disabled and cannot be executed
    /// ```
    public var description: String {
        switch self {
        case .disabled: return "The command is disabled and cannot be executed"
        case .failed(let failure): return "The command failed: \(failure)"
        }
    }
}
