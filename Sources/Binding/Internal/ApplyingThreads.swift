import Observable

/// The threads that are currently applying a value to one channel terminal's property.
///
/// A terminal drops the change notifications that arrive on a thread while that thread applies a
/// value from the other side: those are the echo of its own write, and forwarding them would loop.
final class ApplyingThreads: @unchecked Sendable {
    // Safety: `threads` is only accessed under `lock`.
    private let lock = Lock()
    private var threads: [UInt] = []

    var includesCurrentThread: Bool {
        let me = currentThreadID
        return lock.withLock { threads.contains(me) }
    }

    func begin() {
        let me = currentThreadID
        lock.withLock { threads.append(me) }
    }

    func end() {
        let me = currentThreadID
        lock.withLock {
            if let index = threads.lastIndex(of: me) { threads.remove(at: index) }
        }
    }
}
