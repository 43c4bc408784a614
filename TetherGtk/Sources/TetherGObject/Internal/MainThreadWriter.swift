import CGio
import Synchronization

/// Applies writes to GTK objects on the main thread, in the order they were asked for: at once when
/// asked on the main thread with nothing queued, otherwise through the default main context (idle sources
/// of one priority run in the order they were attached).
final class MainThreadWriter: @unchecked Sendable {
    // Safety: `pending` is guarded by its mutex; queued writes run on the main thread only.
    private let pending = Locked(0)

    func perform(_ write: @escaping () -> Void) {
        let direct = isOnMainThread && pending.withLock { $0 == 0 }
        if direct {
            write()
            return
        }
        pending.withLock { $0 += 1 }
        // The write crosses to the main thread once and runs there alone.
        let transfer = UncheckedTransfer(write)
        MainContextScheduler.main.schedule { [self] in
            transfer.value()
            pending.withLock { $0 -= 1 }
        }
    }
}

/// A non-Sendable value handed to exactly one other thread, never used again by the sender.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
