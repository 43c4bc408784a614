import Dispatch
import Observable
import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Routes POSIX signals to subscriptions: a handler that writes the signal number into a pipe, a Dispatch
/// read source on that pipe, and the bookkeeping that restores each signal's previous disposition after its
/// last subscription.
///
/// Why not `DispatchSource.makeSignalSource`: on Linux it reads a `signalfd`, which sees a signal only if
/// every thread blocks it. libdispatch makes that work with a handler of its own that re-targets the signal
/// to its manager thread — installed asynchronously after `resume()` (a signal sent right after subscribing
/// was lost in a probe) and only the first time a source for that signal is ever registered, so once the
/// previous disposition is restored (which this bridge promises) later sources go deaf. The self-pipe below
/// is installed synchronously, works from any thread, and can be restored and reinstalled at will.
///
/// Resources: the pipe (two descriptors) and its read source are created on first use and kept for the life
/// of the process, like libdispatch's own event descriptors.
final class SignalRouter: @unchecked Sendable {
    // Safety: `subscribers` and `installed` are guarded by `lock`; the pipe ends are immutable.
    static let shared = SignalRouter()

    /// One subscription: the signals it wants and where to send them (immutable, so Sendable).
    final class Subscription: Sendable {
        let signals: [UnixSignal]
        let observer: Observer<UnixSignal, BridgeError>
        init(signals: [UnixSignal], observer: Observer<UnixSignal, BridgeError>) {
            self.signals = signals
            self.observer = observer
        }
    }

    let readEnd: Int32
    let writeEnd: Int32
    private let lock = Lock()
    private var subscribers: [Int32: [Subscription]] = [:]
    private var installed: [Int32: sigaction] = [:]
    private let source: any DispatchSourceRead

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            // The handler must never block: a full pipe drops the signal (the kernel merges them anyway).
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        source = DispatchSource.makeReadSource(
            fileDescriptor: readEnd, queue: DispatchQueue(label: "tether.unix-signals"))
        if readEnd >= 0 {
            source.setEventHandler { [unowned self] in self.drain() }
            source.resume()
        }
        signalPipeWriteEnd = writeEnd
    }

    /// Registers `subscription` and installs the handler for each of its signals not yet handled.
    /// - Returns: the failing signal and `errno` if a disposition could not be changed (nothing is kept then).
    func add(_ subscription: Subscription) -> (UnixSignal, Int32)? {
        if readEnd < 0 { return (subscription.signals.first ?? .interrupt, EMFILE) }
        return lock.withLock {
            var changed: [Int32] = []
            for signal in subscription.signals where installed[signal.rawValue] == nil {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = writeSignalNumber
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                var previous = sigaction()
                if sigaction(signal.rawValue, &action, &previous) != 0 {
                    let code = errno
                    for number in changed {
                        if var restore = installed.removeValue(forKey: number) { sigaction(number, &restore, nil) }
                    }
                    return (signal, code)
                }
                installed[signal.rawValue] = previous
                changed.append(signal.rawValue)
            }
            for signal in subscription.signals { subscribers[signal.rawValue, default: []].append(subscription) }
            return nil
        }
    }

    /// Unregisters `subscription`; a signal nobody observes any more gets its previous disposition back.
    func remove(_ subscription: Subscription) {
        lock.withLock {
            for signal in subscription.signals {
                var list = subscribers[signal.rawValue] ?? []
                list.removeAll { $0 === subscription }
                if !list.isEmpty {
                    subscribers[signal.rawValue] = list
                    continue
                }
                subscribers[signal.rawValue] = nil
                if var previous = installed.removeValue(forKey: signal.rawValue) {
                    sigaction(signal.rawValue, &previous, nil)
                }
            }
        }
    }

    /// Reads the signal numbers the handler wrote and delivers them (on the router's queue).
    private func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while true {
            let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            for byte in bytes[0..<count] {
                let number = Int32(byte)
                let targets = lock.withLock { subscribers[number] ?? [] }
                for target in targets { target.observer.send(UnixSignal(rawValue: number)) }
            }
        }
    }
}

/// The pipe's write end, for the signal handler. Set once, before any handler is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The installed handler: only async-signal-safe calls (`write`), and `errno` is preserved.
private let writeSignalNumber: @convention(c) (Int32) -> Void = { number in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = savedErrno
}
