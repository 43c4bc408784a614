import Synchronization

/// A flag its owner changes only under a lock of its own, and that other threads read without it — a
/// `CompositeDisposable`'s *disposed*: set and cleared inside the lock, read by `isDisposed` from anywhere.
///
/// Inside the lock a relaxed access is exact (the lock orders every change); a change is a releasing store,
/// so a thread that reads the new value outside the lock (acquiring) also sees what the owner did before
/// it, under the lock or not.
///
/// ```swift
/// final class Switch {
///     let lock = Lock()
///     let on = LockedFlag()
///     func turnOn() { lock.withLock { if !on.valueUnderLock { on.setUnderLock(true) } } }
/// }
/// ```
@usableFromInline
package struct LockedFlag: ~Copyable, Sendable {
    @usableFromInline let value = Atomic<Bool>(false)

    /// A flag that is not set.
    @inlinable
    package init() {}

    /// The flag, read without the lock (acquiring): when `true`, what the owner did before setting it is
    /// visible.
    @inlinable
    package var isSet: Bool {
        value.load(ordering: .acquiring)
    }

    /// The flag, read under the lock that guards its changes (relaxed: the lock orders it).
    @inlinable
    package var valueUnderLock: Bool {
        value.load(ordering: .relaxed)
    }

    /// Changes the flag, under the lock that guards its changes (releasing, for readers without it).
    @inlinable
    package func setUnderLock(_ newValue: Bool) {
        value.store(newValue, ordering: .releasing)
    }
}
