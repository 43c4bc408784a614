import Dispatch
import Observable
import Synchronization

/// The Dispatch sources of one subscription, on a private serial queue.
///
/// Disposing cancels every source and — unless it is called on that queue (from inside one of the
/// sources' handlers) — waits until all their cancel handlers have run. A cancel handler is where a
/// bridge closes its file descriptors, and libdispatch runs it only after it unregistered the source
/// (closing its own `signalfd`), so when `dispose()` returns from another thread, every OS resource of
/// the subscription is released.
final class SourceGroup: Disposable, @unchecked Sendable {
    // Safety: `sources` is written only before `activate()` (by the subscribing thread) and read after;
    // `disposed` is atomic; the group and queue are thread-safe.
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()
    private let cancelled = DispatchGroup()
    private var sources: [any DispatchSourceProtocol] = []
    private let disposed = Atomic<Bool>(false)

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the calling code runs on this group's queue.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Adds `source` (not yet resumed); `onCancel` runs on the queue once the source is cancelled.
    func add(_ source: any DispatchSourceProtocol, onCancel: @escaping @Sendable () -> Void = {}) {
        cancelled.enter()
        let group = cancelled
        source.setCancelHandler {
            onCancel()
            group.leave()
        }
        sources.append(source)
    }

    /// Resumes every source added so far.
    func activate() {
        for source in sources { source.resume() }
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        for source in sources { source.cancel() }
        if !isOnQueue { cancelled.wait() }
    }
}
