import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a bridge reports when its input is bad or the system refuses: a typed error event, never a crash.
///
/// Every bridge that can fail has `BridgeError` as its `Failure`: a notification whose `userInfo` does not
/// decode, a closed file descriptor, a signal number that does not exist, a process that cannot launch.
///
/// ```swift
/// Signal.lines(from: -1).subscribe(error: { print($0) })
/// // invalid file descriptor -1
/// ```
public enum BridgeError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A posted notification's `userInfo` does not decode into the payload its ``TypedNotification`` declares
    /// (sent only with `malformed: .fail`; by default such a post is skipped and reported).
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// center.signal(for: progress, malformed: .fail).subscribe(error: { print($0) })
    /// center.post(name: progress.name, object: nil, userInfo: ["TetherPayload": "half"])
    /// // malformed notification DownloadProgress: value under "TetherPayload" is String, expected Double
    /// ```
    case malformedNotification(name: Notification.Name, reason: String)
    /// The file descriptor is not open (`EBADF`).
    ///
    /// ```swift
    /// Signal.bytes(from: -1)   // error(invalidFileDescriptor(-1))
    /// ```
    case invalidFileDescriptor(Int32)
    /// `read(2)` failed with `errno`.
    ///
    /// ```swift
    /// let writeOnlyDescriptor = FileHandle.standardOutput.fileDescriptor
    /// Signal.bytes(from: writeOnlyDescriptor)   // error(readFailed(fileDescriptor: 5, errno: EBADF))
    /// ```
    case readFailed(fileDescriptor: Int32, errno: Int32)
    /// The number is not a signal of this system (valid: `1 ..< NSIG`).
    ///
    /// ```swift
    /// Signal.unixSignals(UnixSignal(rawValue: 0))   // error(invalidSignalNumber(0))
    /// ```
    case invalidSignalNumber(Int32)
    /// The signal exists but cannot be observed: `SIGKILL` and `SIGSTOP` cannot be caught, and the
    /// synchronous fault signals (`SIGSEGV`, `SIGBUS`, `SIGFPE`, `SIGILL`, `SIGTRAP`, `SIGSYS`) must not be.
    ///
    /// ```swift
    /// Signal.unixSignals(.kill)   // error(unobservableSignal(SIGKILL))
    /// ```
    case unobservableSignal(UnixSignal)
    /// A system call the bridge needed failed with `errno`.
    ///
    /// ```swift
    /// let fd = FileHandle.standardInput.fileDescriptor
    ///
    /// // with the descriptor table full:
    /// Signal.bytes(from: fd)   // error(systemCallFailed(call: "fcntl(F_DUPFD_CLOEXEC)", errno: EMFILE))
    /// ```
    case systemCallFailed(call: String, errno: Int32)
    /// A child process could not be launched.
    ///
    /// ```swift
    /// let missing = Process()
    /// missing.executableURL = URL(fileURLWithPath: "/no/such/program")
    /// Signal.termination(of: missing)   // error(launchFailed(reason: …))
    /// ```
    case launchFailed(reason: String)
    /// An argument is out of range (for example a non-positive read size).
    ///
    /// ```swift
    /// let fd = FileHandle.standardInput.fileDescriptor
    /// Signal.bytes(from: fd, maxLength: 0)   // error(invalidArgument("maxLength must be positive, got 0"))
    /// ```
    case invalidArgument(String)

    /// A readable explanation, with the system's text for `errno` values.
    ///
    /// ```swift
    /// print(BridgeError.invalidSignalNumber(999))   // invalid signal number 999
    /// ```
    public var description: String {
        switch self {
        case .malformedNotification(let name, let reason):
            return "malformed notification \(name.rawValue): \(reason)"
        case .invalidFileDescriptor(let fd):
            return "invalid file descriptor \(fd)"
        case .readFailed(let fd, let code):
            return "read from file descriptor \(fd) failed: \(errnoText(code))"
        case .invalidSignalNumber(let number):
            return "invalid signal number \(number)"
        case .unobservableSignal(let signal):
            return "\(signal) cannot be observed"
        case .systemCallFailed(let call, let code):
            return "\(call) failed: \(errnoText(code))"
        case .launchFailed(let reason):
            return "could not launch process: \(reason)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        }
    }
}

/// `strerror` text for `code`, e.g. "Bad file descriptor (9)".
func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return "\(String(cString: text)) (\(code))"
}
