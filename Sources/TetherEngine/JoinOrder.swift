/// The join order of a fan-out source's subscribers — who joined while the source was delivering, which of
/// them the delivering thread has taken in, and so which sent values each one receives — as two values with
/// pure transitions: ``JoinQueue`` (guarded by the source's lock) and ``JoinedSubscribers`` (touched only by
/// the thread delivering, the gate's owner).
///
/// A subscriber joins without waiting for the delivering thread and without delivering anything itself:
/// under the lock it takes the next join index and waits in the queue. Every event is *stamped* with the
/// number of joins when it was sent (its `seen`). Before delivering an event stamped later than the joins it
/// has taken in, the owner takes the queue in (under the lock) — at most once per batch, since a batch was
/// stamped before the owner took it — and it calls a subscriber only when the subscriber's join index is at
/// most the event's stamp. So a subscriber receives every event sent after it joined and none sent before.
///
/// ```swift
/// var queue = JoinQueue<Subscriber>()
/// var joined = JoinedSubscribers<Subscriber>()
/// _ = queue.join(a)                        // under the lock
/// let seen = queue.count                   // a send's stamp: 1
/// _ = queue.join(b)                        // b joins after that send
/// if joined.needsTakingIn(seen) { joined.takeIn(&queue) }   // the owner, under the lock
/// joined.receives(at: 0, stamped: seen)    // a: true
/// joined.receives(at: 1, stamped: seen)    // b: false
/// ```
///
/// The subjects and `MutableProperty` share it: the state machine reads, and is explored state by state
/// (`JoinOrderExplorationTests`), in one place.
@usableFromInline
package struct JoinQueue<Entry: AnyObject> {
    /// Subscribers that joined and that the owner has not taken in yet, in join order.
    @usableFromInline package internal(set) var pending: ContiguousArray<Entry> = []
    /// Which join each of `pending` was, at the same index.
    @usableFromInline package internal(set) var pendingJoins: ContiguousArray<UInt> = []
    /// How many subscribers joined through the queue: the stamp of an event sent now.
    @usableFromInline package internal(set) var count: UInt = 0
    /// Whether later subscribers must join some other way (the source performed its end).
    @usableFromInline package internal(set) var isClosed = false

    @inlinable
    package init() {}

    /// `entry` joins: returns its join index (the new ``count``), or `nil` when the queue is closed.
    ///
    /// Consuming: a caller that has no use for `entry` afterwards moves its reference into the queue
    /// (no retain here and release in the caller).
    @inlinable
    package mutating func join(_ entry: consuming Entry) -> UInt? {
        if isClosed { return nil }
        count &+= 1
        pending.append(entry)
        pendingJoins.append(count)
        return count
    }

    /// Takes `entry` out of the queue if the owner has not taken it in yet; returns whether it did (the
    /// owner then never calls it).
    @inlinable
    package mutating func remove(_ entry: Entry) -> Bool {
        guard let index = pending.lastIndex(where: { $0 === entry }) else { return false }
        if index == pending.count &- 1 {
            // The newest (a subscription disposed before anyone joined after it, the usual case): nothing
            // to move, and no out-of-line `remove(at:)`.
            pending.removeLast()
            pendingJoins.removeLast()
        } else {
            pending.remove(at: index)
            pendingJoins.remove(at: index)
        }
        return true
    }

    /// Later subscribers join some other way.
    @inlinable
    package mutating func close() {
        isClosed = true
    }

    /// Hands the queued subscribers and their join indices over (to ``JoinedSubscribers/takeIn(_:)``).
    @inlinable
    mutating func takeAll() -> (entries: ContiguousArray<Entry>, joins: ContiguousArray<UInt>) {
        if pending.isEmpty { return ([], []) }
        let taken = (pending, pendingJoins)
        pending.removeAll(keepingCapacity: pending.capacity <= 64)
        pendingJoins.removeAll(keepingCapacity: pendingJoins.capacity <= 64)
        return taken
    }
}

/// The subscribers the owner delivers to, with the join index of each (see ``JoinQueue``). Touched only by
/// the gate's owner; ``takeIn(_:)`` also reads the queue, under the source's lock.
@usableFromInline
package struct JoinedSubscribers<Entry: AnyObject> {
    /// The subscribers, in join order.
    @usableFromInline package internal(set) var entries: ContiguousArray<Entry> = []
    /// Which join each of `entries` was, at the same index (0: it joined in order with the events, through
    /// the gate). Kept beside the entries rather than in them: an entry stays in malloc's 64-byte class.
    @usableFromInline package internal(set) var joins: ContiguousArray<UInt> = []
    /// The queue's ``JoinQueue/count`` when the owner last took it in: every entry joined at most this.
    @usableFromInline package internal(set) var takenCount: UInt = 0
    /// The newest join among `entries`: an event stamped with at least this goes to every entry.
    @usableFromInline package internal(set) var newest: UInt = 0

    @inlinable
    package init() {}

    /// Whether subscribers may have joined before an event stamped `seen` was sent and not be taken in yet.
    @inlinable
    package func needsTakingIn(_ seen: UInt) -> Bool {
        seen > takenCount
    }

    /// Whether every entry joined before an event stamped `seen` was sent (the fast path: call them all).
    @inlinable
    package func allJoined(before seen: UInt) -> Bool {
        seen >= newest
    }

    /// Whether the entry at `index` receives an event stamped `seen`: it joined before the event was sent.
    @inlinable
    package func receives(at index: Int, stamped seen: UInt) -> Bool {
        joins[index] <= seen
    }

    /// Takes the queued subscribers in (called under the source's lock).
    @inlinable
    package mutating func takeIn(_ queue: inout JoinQueue<Entry>) {
        let taken = queue.takeAll()
        if !taken.entries.isEmpty {
            entries.append(contentsOf: taken.entries)
            joins.append(contentsOf: taken.joins)
            newest = taken.joins[taken.joins.count - 1]
        }
        takenCount = queue.count
    }

    /// Adds a subscriber that joined in order with the events (through the gate): it receives every later
    /// event.
    @inlinable
    package mutating func appendInOrder(_ entry: Entry) {
        entries.append(entry)
        joins.append(0)
    }

    /// Removes `entry`, if it is here.
    @inlinable
    package mutating func remove(_ entry: Entry) {
        if let index = entries.lastIndex(where: { $0 === entry }) {
            entries.remove(at: index)
            joins.remove(at: index)
        }
    }

    /// Removes every entry and returns them (the source ended).
    @inlinable
    package mutating func removeAll() -> ContiguousArray<Entry> {
        let all = entries
        entries = []
        joins = []
        return all
    }
}
