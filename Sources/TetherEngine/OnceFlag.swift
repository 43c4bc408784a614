import Synchronization

/// A flag set once, by whichever thread gets there first, and read from any thread: a one-shot claim
/// (`dispose()`, `connect()`), or the publication of what its setter wrote before setting it.
///
/// ``set()`` is an acquiring-and-releasing exchange: what the setter did before it is visible to any thread
/// that then reads ``isSet`` as `true` (acquiring), and exactly one call returns `true`. A flag never
/// clears.
///
/// ```swift
/// let disposed = OnceFlag()
/// disposed.set()      // true: this call disposes
/// disposed.set()      // false: already set
/// disposed.isSet      // true
/// ```
@usableFromInline
package struct OnceFlag: ~Copyable, Sendable {
    @usableFromInline let raised = Atomic<Bool>(false)

    /// A flag not set.
    @inlinable
    package init() {}

    /// Sets the flag; returns whether this call set it (`true` for exactly one call).
    @inlinable
    @discardableResult
    package func set() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Whether the flag is set; when `true`, what its setter did before ``set()`` is visible.
    @inlinable
    package var isSet: Bool {
        raised.load(ordering: .acquiring)
    }
}
