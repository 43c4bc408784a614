/// The disposal state of one subscriber of a fan-out source — a subject's, a `MutableProperty`'s or an
/// `@Observed` property's entry — as the disposal fence needs it: *disposed*, set by whoever ends the
/// subscription; *skipped*, set by the owner when it found the subscriber disposed at a callback and will
/// never call it again; and *released*, for a source that drops disposed subscribers lazily: the
/// subscriber's callbacks were let go, so the source may drop it.
///
/// The owner calls a subscriber through ``SerialGate/callUnlessDisposed(_:_:_:)`` (or
/// ``ConfinedDelivery/callUnlessDisposed(_:_:wakingAt:_:)``) and a disposer marks it with
/// ``markDisposed()``, then waits with ``SerialGate/waitForCallback(_:flags:)`` (or
/// ``ConfinedDelivery/waitForCallback(_:flags:parkingAt:)``): the orderings that make the fence sound
/// (``CallbackRendezvous``'s proof) are here and in the engine, not at each source.
///
/// ```swift
/// let flags = SubscriberFlags()
/// flags.markDisposed()          // false: it was not disposed before
/// flags.isDisposed              // true
/// ```
@usableFromInline
package struct SubscriberFlags: ~Copyable, Sendable {
    @usableFromInline let disposed = AtomicFlag()
    @usableFromInline let skipped = AtomicFlag()
    @usableFromInline let released = AtomicFlag()

    /// A subscriber not disposed.
    @inlinable
    package init() {}

    /// Marks the subscriber disposed (sequentially consistent, as the fence requires); returns whether it
    /// already was — the caller that gets `false` ends the subscription.
    @inlinable
    @discardableResult
    package func markDisposed() -> Bool {
        !disposed.raise()
    }

    /// Marks the subscriber disposed where nobody else can mark it or call it: under its source's lock, taken
    /// out of the source before the owner ever took it in (a joiner still in a ``JoinQueue``). A store, not
    /// the exchange of ``markDisposed()``: no other disposer and no callback can race with it.
    @inlinable
    package func markDisposedUnshared() {
        disposed.store(true)
    }

    /// Whether the subscriber was disposed (acquiring: what its disposer did before is visible).
    @inlinable
    package var isDisposed: Bool {
        disposed.isSet
    }

    /// Whether the subscriber was disposed, for a check that only saves work and orders nothing (a joiner
    /// that stops catching up, a join skipped).
    @inlinable
    package var isDisposedRelaxed: Bool {
        disposed.isSetRelaxed
    }

    /// Called by the gate's owner at a callback: whether the subscriber was disposed — then the owner
    /// reports that it skipped it, so that a disposer waiting for that callback returns.
    @inlinable
    func disposedAtCallback() -> Bool {
        if !disposed.isSetSequentiallyConsistent { return false }
        if !skipped.isSetRelaxed { skipped.store(true) }
        return true
    }

    /// Records that the subscriber's callbacks were released, once no delivery can run them: its source
    /// may drop it. Releasing: the release happened before a source that sees ``isReleased``.
    @inlinable
    package func markReleased() {
        released.store(true)
    }

    /// Whether ``markReleased()`` was called (acquiring).
    @inlinable
    package var isReleased: Bool {
        released.isSet
    }

    /// Whether the owner reported skipping the subscriber (for the disposer's wait).
    @inlinable
    package var wasSkipped: Bool {
        skipped.isSetRelaxed
    }
}
