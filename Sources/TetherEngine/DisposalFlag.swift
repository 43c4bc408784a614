import Synchronization

/// The *disposed* flag of the disposal fence (``CallbackRendezvous``): set when a subscription stops taking
/// inputs, read at every input and every callback — of an `Observer` or an operator's `Mailbox` directly,
/// of a fan-out source's subscriber through ``SubscriberFlags``.
///
/// A disposer sets it with ``markDisposed()`` (sequentially consistent, as the fence requires before the
/// disposer's wait). The owner of a source with one subscription checks it at each callback with a relaxed
/// load (``isSetRelaxed``) and, finding it set, acknowledges the disposal to the gate; the owner of a fan-out
/// source, which publishes each callback in the fence first, reads it with ``isSetAfterEnteringCallback``. A source may also close its
/// input side without a disposal (a terminal event) with ``markClosed()``. Readers outside the source's gate
/// use ``isSet`` (acquiring: what the closer did first is visible).
///
/// Why relaxed loads suffice at inputs and callbacks: an input that misses a concurrent close is dropped by the
/// check at its callback, or delivered before the disposer's wait returns — the gate's acknowledgment, not
/// this load, is what the disposer waits for.
///
/// ```swift
/// let closed = DisposalFlag()
/// closed.markDisposed()   // false: it was open
/// closed.isSet            // true
/// ```
@usableFromInline
package struct DisposalFlag: ~Copyable, Sendable {
    @usableFromInline let value = Atomic<Bool>(false)

    /// An open subscription.
    @inlinable
    package init() {}

    /// Sets the flag for a disposal (sequentially consistent); returns whether it was already set — the caller
    /// that gets `false` disposes.
    @inlinable
    @discardableResult
    package func markDisposed() -> Bool {
        value.exchange(true, ordering: .sequentiallyConsistent)
    }

    /// Sets the flag without a disposal (the subscription ended: its input side closes); releasing.
    @inlinable
    package func markClosed() {
        value.store(true, ordering: .releasing)
    }

    /// Whether the flag is set (acquiring).
    @inlinable
    package var isSet: Bool {
        value.load(ordering: .acquiring)
    }

    /// Whether the flag is set, read by the owner of a fan-out source right after it published the callback
    /// it is about to make (``CallbackRendezvous/enter(_:wakingAt:)``): sequentially consistent, the fence's
    /// store-load pair.
    @inlinable
    package var isSetAfterEnteringCallback: Bool {
        value.load(ordering: .sequentiallyConsistent)
    }

    /// Whether the flag is set, at an input or a callback of the source (relaxed; see the type's notes).
    @inlinable
    package var isSetRelaxed: Bool {
        value.load(ordering: .relaxed)
    }
}
