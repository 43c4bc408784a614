import CGio
import Synchronization

/// What GLib holds for one connected signal handler: the Swift handler, and what to do when GLib drops
/// the handler without being asked to (the object was disposed). Retained once for GLib when connected;
/// the closure's finalize notifier — which GLib calls on disconnection and when the object is disposed —
/// releases that reference, so no box outlives its handler.
///
/// GLib may emit on one thread and finalize on another (a GIO object's signal emitted on a worker, a
/// `GSettings` change announced on the writer's thread, the handler disconnected on the loop's): the
/// closures are taken under the package's one lock and called after it is released, so neither a lock is
/// held while the handler runs nor does the handler race with its release.
final class HandlerBox: Sendable {
    private struct State {
        var body: (@Sendable (GSignalArguments) -> Void)?
        var onEnd: (@Sendable () -> Void)?
    }
    private let state: Locked<State>
    private let disposed = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)

    /// How many boxes GLib holds right now (handlers connected by TetherGObject and not yet finalized).
    static let live = Atomic<Int>(0)

    init(body: @escaping @Sendable (GSignalArguments) -> Void, onEnd: (@Sendable () -> Void)?) {
        state = Locked(State(body: body, onEnd: onEnd))
    }

    /// Marks the handler disposed: it delivers nothing from now on. Returns `false` when already disposed.
    func markDisposed() -> Bool { !disposed.exchange(true, ordering: .acquiringAndReleasing) }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Whether GLib has dropped the handler (disconnected, or the object disposed).
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    func invoke(_ arguments: GSignalArguments) {
        if isDisposed { return }
        let body = state.withLock { $0.body }
        body?(arguments)
    }

    /// GLib dropped the handler: release the Swift closures; tell `onEnd` unless it was our own disposal.
    func finish() {
        ended.store(true, ordering: .releasing)
        let released = state.withLock { state -> State in
            defer { state = State() }
            return state
        }
        if !isDisposed { released.onEnd?() }
        // `released` (and what the closures captured) goes here, with no lock held.
    }

    /// Creates the GClosure that calls this box, retaining the box for GLib until the closure is finalized.
    func makeClosure() -> UnsafeMutablePointer<GClosure> {
        let data = Unmanaged.passRetained(self).toOpaque()
        HandlerBox.live.add(1, ordering: .relaxed)
        let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), data)!
        g_closure_set_marshal(closure, handlerMarshal)
        g_closure_add_finalize_notifier(closure, data, handlerFinalized)
        return closure
    }
}

/// The one marshaller for every signal: the emission's arguments stay `GValue`s, read on demand.
private let handlerMarshal: GClosureMarshal = { closure, returnValue, count, values, _, _ in
    guard let data = closure?.pointee.data else { return }
    let box = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue()
    box.invoke(GSignalArguments(values: values, count: Int(count), returnValue: returnValue))
}

/// The closure's finalize notifier: GLib no longer calls the handler; release GLib's reference to the box.
private let handlerFinalized: GClosureNotify = { data, _ in
    guard let data else { return }
    let box = Unmanaged<HandlerBox>.fromOpaque(data).takeRetainedValue()
    HandlerBox.live.subtract(1, ordering: .relaxed)
    box.finish()
}
