import CGtk
import Synchronization

/// What GLib holds for one connected signal handler: the Swift handler, and what to do when GLib drops
/// the handler without being asked to (the object was disposed). Retained once for GLib when connected;
/// the closure's finalize notifier — which GLib calls on disconnection and when the object is disposed —
/// releases that reference, so no box outlives its handler.
final class HandlerBox: @unchecked Sendable {
    // Safety: `body` and `onEnd` are only touched on the thread that emits and finalizes the handler (the
    // main thread for GTK objects): set once before connecting, cleared by `finish()`. The flags are atomic.
    private var body: ((GSignalArguments) -> Void)?
    private var onEnd: (() -> Void)?
    private let disposed = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)

    /// How many boxes GLib holds right now (handlers connected by TetherGtk and not yet finalized).
    static let live = Atomic<Int>(0)

    init(body: @escaping (GSignalArguments) -> Void, onEnd: (() -> Void)?) {
        self.body = body
        self.onEnd = onEnd
    }

    /// Marks the handler disposed: it delivers nothing from now on. Returns `false` when already disposed.
    func markDisposed() -> Bool { !disposed.exchange(true, ordering: .acquiringAndReleasing) }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Whether GLib has dropped the handler (disconnected, or the object disposed).
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    func invoke(_ arguments: GSignalArguments) {
        if isDisposed { return }
        body?(arguments)
    }

    /// GLib dropped the handler: release the Swift closures; tell `onEnd` unless it was our own disposal.
    func finish() {
        ended.store(true, ordering: .releasing)
        let end = onEnd
        body = nil
        onEnd = nil
        if !isDisposed { end?() }
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
