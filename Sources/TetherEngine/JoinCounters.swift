import Synchronization

/// How many subscribers of a fan-out source are catching up — receiving, on their joining thread, the
/// values sent before they were taken in (a `ReplaySubject`'s replay, a `MutableProperty`'s current value) —
/// for the owner, which must hand such a subscriber later values instead of calling it.
///
/// A joiner counts itself under the source's lock (``begin()``) and uncounts itself when it has caught up
/// (``end()``, releasing: what it did while catching up is visible to the owner that then reads zero). The
/// owner's ``isZero`` (acquiring) is its fast path: when nobody catches up it calls every subscriber directly.
///
/// ```swift
/// let catchUps = CatchUpCount()
/// catchUps.begin()    // a joiner starts its catch-up (under the source's lock)
/// catchUps.isZero     // false: the owner hands values over
/// catchUps.end()
/// ```
@usableFromInline
package struct CatchUpCount: ~Copyable, Sendable {
    @usableFromInline let count = Atomic<Int>(0)

    /// Nobody catching up.
    @inlinable
    package init() {}

    /// A joiner starts catching up; called under the source's lock, which orders it (relaxed).
    @inlinable
    package func begin() {
        count.wrappingAdd(1, ordering: .relaxed)
    }

    /// A joiner has caught up (releasing).
    @inlinable
    package func end() {
        count.wrappingSubtract(1, ordering: .releasing)
    }

    /// Whether nobody is catching up (acquiring).
    @inlinable
    package var isZero: Bool {
        count.load(ordering: .acquiring) == 0
    }
}

/// The join index of a fan-out source's newest subscriber, published for senders that stamp their events
/// without the source's lock: an event stamped with index *n* goes to the subscribers that joined before
/// the *n*-th (``JoinedSubscribers``).
///
/// The source publishes under its lock (releasing); a sender reads it relaxed — its submission then goes
/// through the gate's lock, which orders the stamp against the joins the owner takes in (see the source's
/// notes on joins).
///
/// ```swift
/// let joins = PublishedJoinIndex()
/// joins.publish(3)    // under the source's lock
/// joins.latest        // 3
/// ```
@usableFromInline
package struct PublishedJoinIndex: ~Copyable, Sendable {
    @usableFromInline let index = Atomic<UInt>(0)

    /// No join yet.
    @inlinable
    package init() {}

    /// Publishes the index of the newest join (under the source's lock; releasing).
    @inlinable
    package func publish(_ newIndex: UInt) {
        index.store(newIndex, ordering: .releasing)
    }

    /// The newest join index, for a sender's stamp (relaxed; see the type's notes).
    @inlinable
    package var latest: UInt {
        index.load(ordering: .relaxed)
    }
}
