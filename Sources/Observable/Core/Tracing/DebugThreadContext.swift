import TetherEngine
import TetherShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the debugging tools know about the calling thread: the signals whose `signal` an operator just
/// read (the inputs of the signal it is about to make), the subscriptions being started and the events
/// being delivered on it (innermost last). Only used while a tool is on.
final class DebugThreadContext {
    /// A small number for the thread, in order of first use (Chrome traces want integers).
    let number: Int
    /// The thread's name (`pthread_getname_np`), or `"main"`.
    let name: String
    /// Whether this is the process's main thread.
    let isMainThread: Bool
    // Confined to its thread (only `current` hands it out), so the runtime's exclusivity checks — a
    // `swift_beginAccess` per read, paid by every signal made once a name exists — are left out.
    // `pendingInputs` changes only through `notePendingInput(_:)`, `replacePendingInput(_:with:)`,
    // `clearPendingInputs()` and `takePendingInputs()`, which keep the count of threads with inputs pending
    // (in `debugFlags`).
    @exclusivity(unchecked) private(set) var pendingInputs: [SignalDebugInfo] = []
    @exclusivity(unchecked) var starting: [LiveSubscriptionNode] = []
    @exclusivity(unchecked) var delivering: [(node: LiveSubscriptionNode, event: String)] = []
    /// The label the next root subscription on this thread takes for its subscriber (a binding's target).
    @exclusivity(unchecked) var subscriberLabel: String?

    private init() {
        number = threadNumbers.add(1)
        isMainThread = isProcessMainThread()
        name = isMainThread ? "main" : threadName() ?? "thread \(number)"
    }

    /// The thread ended with inputs pending: it no longer counts in ``debugFlags``.
    deinit {
        if !pendingInputs.isEmpty { debugFlags.add(-DebugSwitch.pendingInputsUnit) }
    }

    /// Whether some thread may have inputs pending. When not, the calling thread has none, so a signal
    /// made or a subscription started with the graph off has nothing to take or forget: it skips the
    /// thread-local lookup of ``current`` (paid by every signal made once a name exists).
    ///
    /// A thread's own increment is visible to its own later loads, and the count only drops below that
    /// thread's contribution through its own decrement: a relaxed load suffices.
    static var anyThreadHasPendingInputs: Bool {
        debugFlags.value & ~DebugSwitch.switchBits != 0
    }

    /// `info` was read on this thread: an input of the next signal made here.
    func notePendingInput(_ info: SignalDebugInfo) {
        if pendingInputs.isEmpty { debugFlags.add(DebugSwitch.pendingInputsUnit) }
        pendingInputs.append(info)
    }

    /// Replaces the last pending `old` with `new` (a subject's signal read as the copy that names its sender).
    func replacePendingInput(_ old: SignalDebugInfo, with new: SignalDebugInfo) {
        if let index = pendingInputs.lastIndex(where: { $0 === old }) {
            pendingInputs[index] = new
        }
    }

    /// Forgets the inputs read on this thread.
    func clearPendingInputs() {
        if pendingInputs.isEmpty { return }
        pendingInputs.removeAll(keepingCapacity: true)
        debugFlags.add(-DebugSwitch.pendingInputsUnit)
    }

    /// Only for its destructor, which releases a thread's context when the thread ends; the context is
    /// read through a C thread-local slot (`tether_debug_thread_context`, TetherShims).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            if tether_debug_thread_context() == raw { tether_set_debug_thread_context(nil) }
            Unmanaged<DebugThreadContext>.fromOpaque(raw).release()
        }
        precondition(status == 0, "Tether: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's context, made on first use and released when the thread exits.
    static var current: DebugThreadContext {
        if let raw = tether_debug_thread_context() {
            return Unmanaged<DebugThreadContext>.fromOpaque(raw).takeUnretainedValue()
        }
        let context = DebugThreadContext()
        let raw = Unmanaged.passRetained(context).toOpaque()
        pthread_setspecific(key, raw)
        tether_set_debug_thread_context(raw)
        return context
    }

    /// The inputs read since the last signal was made, each once, in order of reading.
    func takePendingInputs() -> [SignalDebugInfo] {
        if pendingInputs.isEmpty { return [] }
        var unique: [SignalDebugInfo] = []
        for input in pendingInputs where !unique.contains(where: { $0 === input }) {
            unique.append(input)
        }
        clearPendingInputs()
        return unique
    }
}

private let threadNumbers = RelaxedCounter()

/// The calling thread's name (`/proc/thread-self/comm`), if it has one.
private func threadName() -> String? {
    let file = open("/proc/thread-self/comm", O_RDONLY)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(file, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let name = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n").first.map(String.init)
    return name?.isEmpty == false ? name : nil
}
