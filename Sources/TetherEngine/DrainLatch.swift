import Synchronization

/// Work handed off and not yet run, and a mark that no more will be handed off: fires once, for exactly
/// one caller, when both are done — the moment to end what the work belonged to.
///
/// A boundary sink of a deep chain counts the events it queued for the thread's trampoline root; its
/// upstream ending closes the latch. Whichever comes last — the last queued event run, or the close —
/// gets `true` and ends the subscription; the other gets `false`.
///
/// Orderings: ``enter()`` is relaxed (the hand-off of the item itself orders its run after it);
/// ``leave()`` and ``close()`` are acquiring-and-releasing, so that the caller that fires sees everything
/// the other callers did before their own `leave()` or `close()`.
///
/// ```swift
/// let latch = DrainLatch()
/// latch.enter()       // one item queued
/// latch.close()       // false: an item is still pending
/// latch.leave()       // true: the last item ran after the close — end now
/// ```
@usableFromInline
package struct DrainLatch: ~Copyable, Sendable {
    /// Twice the number of pending items, plus 1 once closed.
    @usableFromInline let state = Atomic<Int>(0)

    /// An open latch with nothing pending.
    @inlinable
    package init() {}

    /// One item more is pending (call it before handing the item off).
    @inlinable
    package func enter() {
        state.wrappingAdd(2, ordering: .relaxed)
    }

    /// One pending item is done; returns whether it was the last and the latch is closed (fires).
    @inlinable
    package func leave() -> Bool {
        state.wrappingSubtract(2, ordering: .acquiringAndReleasing).newValue == 1
    }

    /// No more items will come; returns whether none is pending (fires). Call it once.
    @inlinable
    package func close() -> Bool {
        state.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue == 0
    }
}
