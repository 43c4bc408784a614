/// A subscriber's callbacks (its sink) as a fan-out source keeps them in the subscriber's entry.
///
/// The callbacks are not `Sendable` — an operator's closures keep plain state — yet the entry is reached
/// from every thread that sends to the source or disposes the subscription. What makes that sound is the
/// source's protocol, not the entry: the callbacks are called by one thread at a time — the subscribing
/// thread while the subscriber catches up on joining (or finds the source ended), then the owner of the
/// source's gate, inside the disposal fence — and each call is ordered after the previous one by the
/// source's lock (a catch-up unlinked under it) or by the gate's hand-over (acquire and release).
///
/// This type is where that claim is made, once for every source, instead of in each entry; the entry's
/// other stored properties are checked by the compiler. Debug builds also check the "one at a time":
/// ``call(_:)`` traps when a call starts while another is running.
///
/// ```swift
/// final class Entry: Sendable {
///     let callbacks: SerializedCallbacks<(Int) -> Void>
///     init(_ next: @escaping (Int) -> Void) { callbacks = SerializedCallbacks(next) }
/// }
/// let entry = Entry { print($0) }
/// entry.callbacks.call { $0(1) }   // prints 1
/// ```
@usableFromInline
package struct SerializedCallbacks<Callbacks>: ~Copyable, @unchecked Sendable {
    // Safety: `callbacks` is immutable and used only through `call`, which the sources call one thread
    // at a time, each call ordered after the last (see the type's notes; debug builds check the overlap).
    @usableFromInline let callbacks: Callbacks
    #if DEBUG
        /// Set while a call runs (debug builds).
        @usableFromInline let inCall = AtomicFlag()
    #endif

    /// Holds `callbacks` for calls made one at a time.
    @inlinable
    package init(_ callbacks: Callbacks) {
        self.callbacks = callbacks
    }

    /// Calls `body` with the callbacks. The caller is the one thread the source lets call the subscriber
    /// now (see the type's notes).
    @inlinable @inline(__always)
    package func call<Result>(_ body: (Callbacks) -> Result) -> Result {
        #if DEBUG
            precondition(inCall.raise(), "SerializedCallbacks: a subscriber was called on two threads at once")
            defer { inCall.store(false) }
        #endif
        return body(callbacks)
    }

    #if DEBUG
        /// Whether a call is running (debug builds; for tests of the check).
        package var isInCall: Bool { inCall.isSet }
    #endif
}
