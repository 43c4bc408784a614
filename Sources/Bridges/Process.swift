import Foundation
import Observable
import TetherEngine

/// How a child process ended.
///
/// ```swift
/// func report(_ exit: ProcessExit) {   // e.g. from Signal.termination(of:)
///     switch exit {
///     case .exited(0): print("ok")
///     case .exited(let code): print("failed with", code)
///     case .signaled(let signal): print("killed by", signal)
///     }
/// }
/// ```
public enum ProcessExit: Hashable, Sendable, CustomStringConvertible {
    /// The process called `exit` with this status.
    ///
    /// ```swift
    /// // /bin/sh -c 'exit 3'
    /// ProcessExit.exited(3)
    /// ```
    case exited(Int32)
    /// The process was terminated by this signal.
    ///
    /// ```swift
    /// // /bin/sh -c 'kill -TERM $$'
    /// ProcessExit.signaled(.terminate)
    /// ```
    case signaled(UnixSignal)

    /// `exited(3)` or `signaled(SIGTERM)`.
    ///
    /// ```swift
    /// print(ProcessExit.exited(3))   // exited(3)
    /// ```
    public var description: String {
        switch self {
        case .exited(let status): return "exited(\(status))"
        case .signaled(let signal): return "signaled(\(signal))"
        }
    }
}

extension Signal where Value == ProcessExit, Failure == BridgeError {
    /// Sends how `process` ended, then completes.
    ///
    /// Subscribing launches the process if it has not been launched yet (a launch failure is
    /// ``BridgeError/launchFailed(reason:)``); a running process is watched; a finished one reports at
    /// once. The bridge chains `terminationHandler`: a handler you set before subscribing still runs.
    /// Set up the process (arguments, pipes) before subscribing, and do not replace its
    /// `terminationHandler` afterwards (that would silence the subscription).
    ///
    /// Disposing stops watching and leaves the child running; stop it with `process.terminate()`.
    /// (Foundation on Linux spawns children with the launching thread's signal mask, which on Dispatch
    /// threads and under XCTest blocks `SIGTERM`: such a child ignores `terminate()` until it exits.)
    ///
    /// <!-- example: output-unchecked: the exit status arrives when the child has run, after subscribe returns -->
    /// ```swift
    /// let child = Process()
    /// child.executableURL = URL(fileURLWithPath: "/bin/sh")
    /// child.arguments = ["-c", "exit 3"]
    /// Signal.termination(of: child).subscribe(next: { print($0) })   // exited(3)
    /// ```
    public static func termination(of process: Process) -> Signal {
        // Process is thread-safe for these uses (run, isRunning, terminate, termination status).
        let handle = UncheckedSendable(process)
        return Signal { observer in
            let process = handle.value
            let previous = process.terminationHandler
            // Foundation on Linux keeps `Process` objects alive, and a handler stays installed until replaced:
            // it reaches the observer through a slot emptied when the subscription ends, so that a finished
            // or disposed subscription is freed at once.
            let slot = ObserverSlot(observer)
            process.terminationHandler = { [weak process] finished in
                previous?(finished)
                // Done watching: put the previous handler back, so that the process (which Foundation may
                // keep) holds nothing of this subscription.
                process?.terminationHandler = previous
                guard let observer = slot.take() else { return }
                observer.send(ProcessExit(finished))
                observer.sendCompleted()
            }
            if process.processIdentifier == 0 {
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = previous
                    observer.sendError(.launchFailed(reason: "\(error)"))
                    return nil
                }
            } else if !process.isRunning {
                // Finished before we watched it (the handler may also run: the observer keeps one result).
                observer.send(ProcessExit(process))
                observer.sendCompleted()
                return AnyDisposable { _ = slot.take() }
            }
            return AnyDisposable { _ = slot.take() }
        }
    }
}

/// Hands an observer to the one termination handler call, or lets it go when the subscription ends.
private final class ObserverSlot: @unchecked Sendable {
    // Safety: `observer` is guarded by `lock`.
    private let lock = Lock()
    private var observer: Observer<ProcessExit, BridgeError>?

    init(_ observer: Observer<ProcessExit, BridgeError>) {
        self.observer = observer
    }

    func take() -> Observer<ProcessExit, BridgeError>? {
        lock.withLock {
            defer { observer = nil }
            return observer
        }
    }
}

extension ProcessExit {
    init(_ process: Process) {
        switch process.terminationReason {
        case .exit: self = .exited(process.terminationStatus)
        case .uncaughtSignal: self = .signaled(UnixSignal(rawValue: process.terminationStatus))
        @unknown default: self = .exited(process.terminationStatus)
        }
    }
}
