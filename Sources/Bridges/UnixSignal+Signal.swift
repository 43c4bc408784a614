import Dispatch
import Observable

extension Signal where Value == UnixSignal, Failure == BridgeError {
    /// Sends each of `signals` the process receives, through Dispatch signal sources.
    ///
    /// While subscribed, the bridge owns the signals' disposition (the default action, e.g. terminating
    /// on `SIGINT`, does not happen); when the last subscription to a signal ends, the disposition it had
    /// before is restored. No signal sent after `subscribe` returns is lost. Values arrive on a private
    /// queue; a burst of the same signal may be merged by the kernel into one.
    ///
    /// Bad input is an error event, never a crash: a number that is not a signal gives
    /// ``BridgeError/invalidSignalNumber(_:)``; `SIGKILL`, `SIGSTOP` and the synchronous fault signals give
    /// ``BridgeError/unobservableSignal(_:)``. Nothing is installed in that case.
    ///
    /// ```swift
    /// let shutdown = Signal.unixSignals(.interrupt, .terminate)
    ///     .subscribe(next: { signal in print("stopping on", signal) })
    /// // Control-C → stopping on SIGINT
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
            var acquired: [UnixSignal] = []
            for signal in unique {
                if let code = SignalDispositions.shared.acquire(signal) {
                    for held in acquired { SignalDispositions.shared.release(held) }
                    observer.sendError(.systemCallFailed(call: "sigaction(\(signal))", errno: code))
                    return nil
                }
                acquired.append(signal)
            }
            let group = SourceGroup(label: "tether.unix-signals")
            for signal in unique {
                let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: group.queue)
                // The source is only touched from its own handler, on its queue.
                let handle = BridgeUnchecked(source)
                source.setEventHandler {
                    let count = max(1, Int(handle.value.data))
                    for _ in 0..<count { observer.send(signal) }
                }
                group.add(source)
            }
            group.activate()
            let held = unique
            return AnyDisposable {
                group.dispose()
                for signal in held { SignalDispositions.shared.release(signal) }
            }
        }
    }
}
