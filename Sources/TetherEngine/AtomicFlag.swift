import Synchronization

/// A Boolean shared between threads: the package's one flag primitive, with every memory ordering a flag
/// needs named here once, with its reason.
///
/// What it is used for, and the operation each use takes:
/// - **A one-shot claim** (`dispose()`, `connect()`, a subscription's *disposed*): ``raise()`` returns `true`
///   to exactly one caller. It is a sequentially consistent exchange — as the disposal fence
///   (``CallbackRendezvous``) requires of a disposer before its wait, and acquiring-and-releasing as any
///   claim does: what the winner reads, every earlier raiser's writes included, is settled.
/// - **A publication** (a subscription closing its input side, a wait broken, a subscriber's callbacks
///   released, a change made under its owner's lock): ``store(_:)`` is a releasing store, so a thread that
///   reads the new value with ``isSet`` (acquiring) also sees what the writer did before it.
/// - **A check that only saves work** at an input or a callback, where something else (a gate's
///   acknowledgment, the lock that guards the changes) orders what matters: ``isSetRelaxed``.
/// - **The fence's store-load pair**: the owner of a fan-out source reads a subscriber's *disposed* right
///   after publishing the callback it is about to make, with ``isSetSequentiallyConsistent``.
/// - **A request taken by its owner** (drop the disposed subscribers): ``takeIfSet()`` clears it and returns
///   whether it was set, acquiring what the requester released with ``store(_:)``.
///
/// ```swift
/// let disposed = AtomicFlag()
/// disposed.raise()      // true: this call disposes
/// disposed.raise()      // false: already raised
/// disposed.isSet        // true
/// ```
@usableFromInline
package struct AtomicFlag: ~Copyable, Sendable {
    @usableFromInline let value = Atomic<Bool>(false)

    /// A flag that is not set.
    @inlinable
    package init() {}

    /// Sets the flag; returns whether this call set it (`true` for exactly one caller until it is cleared).
    /// Sequentially consistent (see the type's notes).
    @inlinable
    @discardableResult
    package func raise() -> Bool {
        !value.exchange(true, ordering: .sequentiallyConsistent)
    }

    /// Sets or clears the flag without claiming it (releasing): a publication, or a change made under the
    /// lock that guards the flag's changes.
    @inlinable
    package func store(_ newValue: Bool) {
        value.store(newValue, ordering: .releasing)
    }

    /// Clears the flag if it is set; returns whether it was (acquiring what its setter released). A relaxed
    /// check first, so that a flag seldom set costs a load.
    @inlinable
    package func takeIfSet() -> Bool {
        value.load(ordering: .relaxed) && value.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Whether the flag is set (acquiring): when `true`, what its setter did before setting it is visible.
    @inlinable
    package var isSet: Bool {
        value.load(ordering: .acquiring)
    }

    /// Whether the flag is set, for a check that orders nothing: under the lock that guards its changes,
    /// or at an input or a callback whose soundness something else provides.
    @inlinable
    package var isSetRelaxed: Bool {
        value.load(ordering: .relaxed)
    }

    /// Whether the flag is set, read right after a sequentially consistent store of the caller's own: the
    /// disposal fence's store-load pair (``SubscriberFlags``).
    @inlinable
    package var isSetSequentiallyConsistent: Bool {
        value.load(ordering: .sequentiallyConsistent)
    }
}
