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
    /// The only subscriber waiting, when just one is (the usual case: a subscription made and disposed
    /// before anyone joined after it); it joined as ``firstJoin``. Never set while ``spilled`` holds any:
    /// a second joiner moves it there. One word, and no array call to join or leave.
    @usableFromInline package internal(set) var slot: Entry?
    /// Subscribers that joined and that the owner has not taken in yet, in join order, once two waited at
    /// the same time (empty while ``slot`` holds the only one, or none waits).
    @usableFromInline package internal(set) var spilled: ContiguousArray<Entry> = []
    /// While ``gappedJoins`` is empty: the join index of the oldest waiting subscriber (``slot``, or
    /// `spilled[0]`), and `spilled[i]` joined as `firstJoin + i`. Subscribers usually join one after the
    /// other and leave newest first, so the queue keeps one word per joiner rather than two (8 bytes per
    /// live subscription of a subject that has not sent since, and one array append fewer per join).
    /// Once the indices are written out into ``gappedJoins``, they are read there and this value means
    /// nothing until the queue is empty again (the next joiner then sets it).
    @usableFromInline package internal(set) var firstJoin: UInt = 0
    /// Empty while the join indices of ``spilled`` are consecutive from ``firstJoin``; otherwise the join
    /// index of each of `spilled`, at the same index (written out once a joiner left from the middle, or a
    /// newer one left and another joined after it; emptied with the queue).
    @usableFromInline package internal(set) var gappedJoins: ContiguousArray<UInt> = []
    /// How many subscribers joined through the queue: the stamp of an event sent now.
    @usableFromInline package internal(set) var count: UInt = 0
    /// Whether later subscribers must join some other way (the source performed its end).
    @usableFromInline package internal(set) var isClosed = false

    @inlinable
    package init() {}

    /// The subscribers waiting, in join order (for tests and diagnostics).
    package var pending: ContiguousArray<Entry> {
        if let slot { return [slot] }
        return spilled
    }

    /// Which join each of ``pending`` was, at the same index (for tests and diagnostics).
    package var pendingJoins: ContiguousArray<UInt> {
        if slot != nil { return [firstJoin] }
        if !gappedJoins.isEmpty { return gappedJoins }
        return ContiguousArray((0..<UInt(spilled.count)).map { firstJoin &+ $0 })
    }

    /// `entry` joins: returns its join index (the new ``count``), or `nil` when the queue is closed.
    ///
    /// Consuming: a caller that has no use for `entry` afterwards moves its reference into the queue
    /// (no retain here and release in the caller).
    @inlinable
    package mutating func join(_ entry: consuming Entry) -> UInt? {
        if isClosed { return nil }
        count &+= 1
        if slot == nil && spilled.isEmpty {
            firstJoin = count
            slot = entry
        } else {
            joinSpilling(entry)
        }
        return count
    }

    /// ``join(_:)`` of a subscriber while another waits: into ``spilled`` (with the one in ``slot``, first).
    @inlinable @inline(never)
    mutating func joinSpilling(_ entry: consuming Entry) {
        if let first = slot.take() {
            // The slot's joiner was the newest join (it came into an empty queue, and every later join
            // comes here): the two are consecutive.
            spilled.reserveCapacity(2)
            spilled.append(first)
        } else if !gappedJoins.isEmpty {
            gappedJoins.append(count)
        } else if firstJoin &+ UInt(spilled.count) != count {
            // A newer joiner left before this one came: the indices are not consecutive any more.
            writeOutJoins()
            gappedJoins.append(count)
        }
        spilled.append(entry)
    }

    /// Fills ``gappedJoins`` with the (consecutive) join indices of ``spilled``.
    @usableFromInline
    mutating func writeOutJoins() {
        gappedJoins.reserveCapacity(spilled.count &+ 1)
        for offset in 0..<UInt(spilled.count) { gappedJoins.append(firstJoin &+ offset) }
    }

    /// Takes `entry` out of the queue if the owner has not taken it in yet; returns whether it did (the
    /// owner then never calls it).
    @inlinable
    package mutating func remove(_ entry: Entry) -> Bool {
        if slot != nil {
            if slot !== entry { return false }
            slot = nil
            return true
        }
        if spilled.isEmpty { return false }
        return removeSpilled(entry)
    }

    /// ``remove(_:)`` from ``spilled``.
    @inlinable @inline(never)
    mutating func removeSpilled(_ entry: Entry) -> Bool {
        guard let index = spilled.lastIndex(where: { $0 === entry }) else { return false }
        if index == spilled.count &- 1 {
            // The newest: nothing to move; consecutive indices stay consecutive.
            spilled.removeLast()
            if !gappedJoins.isEmpty { gappedJoins.removeLast() }
        } else if gappedJoins.isEmpty && index == 0 {
            // The oldest: the others' indices stay consecutive from the next one.
            firstJoin &+= 1
            spilled.remove(at: 0)
        } else {
            if gappedJoins.isEmpty { writeOutJoins() }
            spilled.remove(at: index)
            gappedJoins.remove(at: index)
        }
        if spilled.isEmpty && !gappedJoins.isEmpty { gappedJoins.removeAll(keepingCapacity: true) }
        return true
    }

    /// Later subscribers join some other way.
    @inlinable
    package mutating func close() {
        isClosed = true
    }

    /// Hands the subscribers in ``spilled`` over (to ``JoinedSubscribers/takeIn(_:)``), with ``firstJoin``
    /// and ``gappedJoins`` as they were.
    @inlinable
    mutating func takeSpilled()
        -> (entries: ContiguousArray<Entry>, firstJoin: UInt, gappedJoins: ContiguousArray<UInt>)
    {
        let taken = (spilled, firstJoin, gappedJoins)
        spilled.removeAll(keepingCapacity: spilled.capacity <= 64)
        if !gappedJoins.isEmpty { gappedJoins.removeAll(keepingCapacity: gappedJoins.capacity <= 64) }
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
        if let entry = queue.slot.take() {
            entries.append(entry)
            joins.append(queue.firstJoin)
            newest = queue.firstJoin
        } else if !queue.spilled.isEmpty {
            takeInSpilled(&queue)
        }
        takenCount = queue.count
    }

    /// ``takeIn(_:)`` of the subscribers in the queue's ``JoinQueue/spilled``.
    @inlinable @inline(never)
    mutating func takeInSpilled(_ queue: inout JoinQueue<Entry>) {
        let taken = queue.takeSpilled()
        entries.append(contentsOf: taken.entries)
        if taken.gappedJoins.isEmpty {
            let count = UInt(taken.entries.count)
            joins.append(contentsOf: taken.firstJoin..<taken.firstJoin &+ count)
            newest = taken.firstJoin &+ (count &- 1)
        } else {
            joins.append(contentsOf: taken.gappedJoins)
            newest = taken.gappedJoins[taken.gappedJoins.count - 1]
        }
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
