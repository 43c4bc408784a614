import CGio

/// A `GWeakRef` at a stable address: a reference to a GObject that does not keep it alive and reads as
/// `nil` once the object is finalized. `g_weak_ref_get` and `g_weak_ref_clear` are thread-safe.
package final class WeakObject: @unchecked Sendable {
    // Safety: only touched through GLib's thread-safe weak-reference functions.
    private let reference: UnsafeMutablePointer<GWeakRef>

    package init(_ object: UnsafeMutablePointer<GObject>) {
        reference = .allocate(capacity: 1)
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, object)
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }

    /// Runs `body` with a strong reference to the object, or returns `nil` when it is gone.
    package func withObject<Result>(_ body: (UnsafeMutablePointer<GObject>) throws -> Result) rethrows -> Result? {
        guard let raw = g_weak_ref_get(reference) else { return nil }
        let object = raw.assumingMemoryBound(to: GObject.self)
        defer { g_object_unref(object) }
        return try body(object)
    }

    /// Whether the object is still alive.
    package var isAlive: Bool { withObject { _ in true } ?? false }
}
