import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Process-wide bookkeeping of the signal dispositions the bridge changed, so the last subscription to a
/// signal restores what was installed before the first one.
///
/// Why the bridge installs a handler at all: a Dispatch signal source on Linux reads a `signalfd`, which
/// only sees a signal that every thread blocks; libdispatch installs a handler that blocks the signal in
/// the receiving thread and re-raises it — but only the first time a source for that signal is ever
/// registered, and asynchronously, after `resume()`. A signal arriving before that (or after a restored
/// disposition replaced libdispatch's handler) would be lost, or would run the default action. The bridge
/// therefore installs its own handler of the same kind synchronously, before the subscription starts:
/// it blocks the signal in the thread that received it and sends it to the process again, until it stays
/// pending where the source's `signalfd` reads it. No signal sent after `subscribe` returned is lost.
///
/// Residue: threads that received the signal keep it blocked after the disposition is restored (the
/// signal mask of other threads cannot be restored from here), exactly as libdispatch's own handler leaves
/// them.
final class SignalDispositions: @unchecked Sendable {
    // Safety: every field is guarded by `lock`; the critical sections run `sigaction` only.
    static let shared = SignalDispositions()

    private let lock = BridgeLock()
    private var installed: [Int32: (count: Int, previous: sigaction)] = [:]

    /// Installs the forwarding handler for `signal` if this is its first subscription.
    /// - Returns: `errno` on failure, `nil` on success.
    func acquire(_ signal: UnixSignal) -> Int32? {
        lock.withLock {
            if var entry = installed[signal.rawValue] {
                entry.count += 1
                installed[signal.rawValue] = entry
                return nil
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            if sigaction(signal.rawValue, &action, &previous) != 0 { return errno }
            installed[signal.rawValue] = (1, previous)
            return nil
        }
    }

    /// Restores the previous disposition of `signal` after its last subscription.
    func release(_ signal: UnixSignal) {
        lock.withLock {
            guard var entry = installed[signal.rawValue] else { return }
            entry.count -= 1
            if entry.count > 0 {
                installed[signal.rawValue] = entry
                return
            }
            installed[signal.rawValue] = nil
            var previous = entry.previous
            sigaction(signal.rawValue, &previous, nil)
        }
    }

    /// The number of subscriptions holding `signal` (for tests).
    func count(of signal: UnixSignal) -> Int {
        lock.withLock { installed[signal.rawValue]?.count ?? 0 }
    }
}

/// The installed handler: async-signal-safe calls only (`pthread_sigmask`, `getpid`, `kill`).
private let forwardSignal: @convention(c) (Int32) -> Void = { number in
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, number)
    pthread_sigmask(SIG_BLOCK, &mask, nil)
    kill(getpid(), number)
}
