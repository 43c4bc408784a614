import Dispatch
import Observable

extension Signal where Value == UnixSignal, Failure == BridgeError {
    /// Sends each of `signals` the process receives.
    ///
    /// While subscribed, the bridge owns the signals' disposition (the default action, e.g. terminating
    /// on `SIGINT`, does not happen): its handler writes the signal number into a pipe that a Dispatch read
    /// source drains. When the last subscription to a signal ends, the disposition it had before is
    /// restored. No signal sent after `subscribe` returns is lost. Values arrive on a private queue; a burst
    /// of the same signal may be merged by the kernel into one. The first subscription creates one pipe
    /// (two descriptors) that the process keeps.
    ///
    /// Bad input is an error event, never a crash: a number that is not a signal gives
    /// ``BridgeError/invalidSignalNumber(_:)``; `SIGKILL`, `SIGSTOP` and the synchronous fault signals give
    /// ``BridgeError/unobservableSignal(_:)``. Nothing is installed in that case.
    ///
    /// ```swift
    /// let shutdown = Signal.unixSignals(.interrupt, .terminate)
    ///     .subscribe(next: { signal in print("stopping on", signal) })
    /// // (Control-C → stopping on SIGINT)
    /// shutdown.dispose()   // Control-C terminates the program again
    /// ```
    public static func unixSignals(_ signals: UnixSignal...) -> Signal {
        unixSignals(signals)
    }

    /// Sends each of `signals` the process receives (see the variadic form).
    ///
    /// ```swift
    /// Signal.unixSignals([.user1, .user2]).subscribe(next: { print($0) })
    /// ```
    public static func unixSignals(_ signals: [UnixSignal]) -> Signal {
        Signal { observer in
            var unique: [UnixSignal] = []
            for signal in signals where !unique.contains(signal) {
                guard signal.isValid else {
                    observer.sendError(.invalidSignalNumber(signal.rawValue))
                    return nil
                }
                guard signal.isObservable else {
                    observer.sendError(.unobservableSignal(signal))
                    return nil
                }
                unique.append(signal)
            }
            let subscription = SignalRouter.Subscription(signals: unique, observer: observer)
            if let (signal, code) = SignalRouter.shared.add(subscription) {
                observer.sendError(.systemCallFailed(call: "sigaction(\(signal))", errno: code))
                return nil
            }
            return AnyDisposable { SignalRouter.shared.remove(subscription) }
        }
    }
}
