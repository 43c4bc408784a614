#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX signal, typed (instead of a raw `Int32`).
///
/// Observe signals with `Signal.unixSignals(_:)`. Any number can be wrapped
/// with ``init(rawValue:)``; a number that is not a signal of this system becomes an error event when
/// observed, never a crash.
///
/// ```swift
/// Signal.unixSignals(.interrupt, .terminate)
///     .subscribe(next: { signal in print("received", signal) })   // (Control-C: received SIGINT)
/// ```
public struct UnixSignal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal number, e.g. `SIGINT`.
    ///
    /// ```swift
    /// print(UnixSignal.interrupt.rawValue == SIGINT)   // true
    /// ```
    public let rawValue: Int32

    /// Wraps a signal number (validated when observed).
    ///
    /// ```swift
    /// let realtime = UnixSignal(rawValue: 40)   // a real-time signal on Linux
    /// ```
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SIGHUP`: the terminal hung up; daemons often reload their configuration.
    ///
    /// ```swift
    /// Signal.unixSignals(.hangup).subscribe(next: { _ in print("reloading the configuration") })
    /// ```
    public static let hangup = UnixSignal(rawValue: SIGHUP)
    /// `SIGINT`: Control-C.
    ///
    /// ```swift
    /// Signal.unixSignals(.interrupt).subscribe(next: { _ in print("cancelling the search") })
    /// ```
    public static let interrupt = UnixSignal(rawValue: SIGINT)
    /// `SIGQUIT`: Control-\\.
    ///
    /// ```swift
    /// Signal.unixSignals(.quit)
    /// ```
    public static let quit = UnixSignal(rawValue: SIGQUIT)
    /// `SIGTERM`: polite termination request.
    ///
    /// ```swift
    /// Signal.unixSignals(.terminate).subscribe(next: { _ in print("shutting down") })
    /// ```
    public static let terminate = UnixSignal(rawValue: SIGTERM)
    /// `SIGUSR1`: application-defined.
    ///
    /// ```swift
    /// Signal.unixSignals(.user1)
    /// ```
    public static let user1 = UnixSignal(rawValue: SIGUSR1)
    /// `SIGUSR2`: application-defined.
    ///
    /// ```swift
    /// Signal.unixSignals(.user2)
    /// ```
    public static let user2 = UnixSignal(rawValue: SIGUSR2)
    /// `SIGWINCH`: the terminal window changed size.
    ///
    /// ```swift
    /// Signal.unixSignals(.windowChange).subscribe(next: { _ in print("redraw") })
    /// ```
    public static let windowChange = UnixSignal(rawValue: SIGWINCH)
    /// `SIGCHLD`: a child process stopped or terminated.
    ///
    /// ```swift
    /// Signal.unixSignals(.childStatusChange)
    /// ```
    public static let childStatusChange = UnixSignal(rawValue: SIGCHLD)
    /// `SIGPIPE`: a write to a pipe with no reader.
    ///
    /// ```swift
    /// Signal.unixSignals(.brokenPipe)
    /// ```
    public static let brokenPipe = UnixSignal(rawValue: SIGPIPE)
    /// `SIGALRM`: an `alarm(2)` timer expired.
    ///
    /// ```swift
    /// Signal.unixSignals(.alarm)
    /// ```
    public static let alarm = UnixSignal(rawValue: SIGALRM)
    /// `SIGCONT`: the process was continued after a stop.
    ///
    /// ```swift
    /// Signal.unixSignals(.continue)
    /// ```
    public static let `continue` = UnixSignal(rawValue: SIGCONT)
    /// `SIGTSTP`: Control-Z.
    ///
    /// ```swift
    /// Signal.unixSignals(.terminalStop)
    /// ```
    public static let terminalStop = UnixSignal(rawValue: SIGTSTP)
    /// `SIGKILL`: cannot be caught; observing it is a ``BridgeError/unobservableSignal(_:)`` error.
    ///
    /// ```swift
    /// Signal.unixSignals(.kill)   // fails at once with .unobservableSignal(.kill)
    /// ```
    public static let kill = UnixSignal(rawValue: SIGKILL)
    /// `SIGSTOP`: cannot be caught; observing it is a ``BridgeError/unobservableSignal(_:)`` error.
    ///
    /// ```swift
    /// Signal.unixSignals(.stop)   // fails at once with .unobservableSignal(.stop)
    /// ```
    public static let stop = UnixSignal(rawValue: SIGSTOP)

    /// The conventional name, e.g. `SIGINT`, or `signal 42` for others.
    ///
    /// ```swift
    /// print(UnixSignal.windowChange)   // SIGWINCH
    /// ```
    public var description: String {
        switch rawValue {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGUSR1: return "SIGUSR1"
        case SIGSEGV: return "SIGSEGV"
        case SIGUSR2: return "SIGUSR2"
        case SIGPIPE: return "SIGPIPE"
        case SIGALRM: return "SIGALRM"
        case SIGTERM: return "SIGTERM"
        case SIGCHLD: return "SIGCHLD"
        case SIGCONT: return "SIGCONT"
        case SIGSTOP: return "SIGSTOP"
        case SIGTSTP: return "SIGTSTP"
        case SIGTTIN: return "SIGTTIN"
        case SIGTTOU: return "SIGTTOU"
        case SIGWINCH: return "SIGWINCH"
        case SIGSYS: return "SIGSYS"
        default: return "signal \(rawValue)"
        }
    }

    /// Whether the number names a signal of this system (`1 ..< NSIG`).
    var isValid: Bool { rawValue > 0 && rawValue < Int32(NSIG) }

    /// Whether a handler can (and may) be installed: not `SIGKILL`/`SIGSTOP`, not a synchronous fault.
    var isObservable: Bool {
        switch rawValue {
        case SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS: return false
        default: return true
        }
    }
}
