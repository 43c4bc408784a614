/// A value a property's channel set (or is about to set) whose change notification has not come back yet.
struct ChannelEcho<Value> {
    let id: UInt64
    let value: Value
    /// The set has returned: a notification that matches no expected echo then shows this one is stale
    /// (the setter stored nothing, or another value, and its notification has already gone by).
    var hasReturned = false
    /// For a set the property's gate left for later, when the gate could tell how many of its operations
    /// come first: the count of notifications by which the set's own has certainly been delivered. A
    /// notification that arrives then and matches no expected echo shows this one is stale (the setter
    /// stored another value).
    var deadline: UInt64?
}

/// The echo bookkeeping of one channel: the sets it made whose change notifications have not come back,
/// the sets in progress, the notifications counted, and the latest value — as a state machine.
///
/// A plain value with no lock, no threads and no user code: ``ChannelCore`` keeps one under
/// ``ChannelLock`` and calls one transition per decision; a transition changes the state and returns what
/// the caller must act on (the echoes to compare a notification with) or release after the lock (echoes
/// and values taken out, which hold user values). Comparing values (`==`, user code) happens between two
/// transitions, with the lock released. The rules are ``ChannelCore``'s (see its notes); they are tested
/// here one transition at a time (`ChannelEchoesTests`).
///
/// <!-- example: skip -->
/// ```swift
/// var echoes = ChannelEchoes<Int>()
/// let id = echoes.announce(5)               // a set of 5 is about to be made
/// echoes.beginSet(id, on: 1)
/// let expected = echoes.notificationArrived(on: 1)   // the property delivers 5, during the set
/// _ = echoes.consume(through: expected![0].id)        // it matched: the echo is consumed
/// _ = echoes.endSet(id, on: 1, deferred: false, ahead: nil, dropsUnheard: true)
/// echoes.isExpectingNone                    // true
/// ```
struct ChannelEchoes<Value> {
    /// One set in progress: the setting thread, its echo, and how many notifications that thread
    /// delivered during the set.
    struct SetInProgress {
        let thread: UInt
        let echoID: UInt64
        var deliveries: Int
        let notificationsBefore: UInt64
    }

    /// The echoes expected, oldest first.
    private(set) var expected: [ChannelEcho<Value>] = []
    private var lastEchoID: UInt64 = 0
    /// The latest value sent to the following terminal (silently or not).
    private(set) var latest: Value?
    /// Changes whenever `latest` or `expected` change (a link's first sync uses it).
    private(set) var version: UInt64 = 0
    private(set) var setsInProgress: [SetInProgress] = []
    /// How many change notifications the property has delivered (on any thread).
    private(set) var notifications: UInt64 = 0
    /// A set was seen delivering its change on the setting thread, during the set: a set during which
    /// nothing at all is delivered stored nothing.
    private(set) var deliversDuringSets = false

    /// No echo is expected.
    var isExpectingNone: Bool { expected.isEmpty }

    /// Whether the only echo expected is `id`'s (with `id == nil`: whether none is).
    func expectsOnly(_ id: UInt64?) -> Bool {
        guard let id else { return expected.isEmpty }
        return expected.count == 1 && expected[0].id == id
    }

    /// What a new subscriber of the following terminal is replayed: the value the property will hold once
    /// the pending sets are made.
    var replay: Value? { expected.last?.value ?? latest }

    /// Expects the echo of a set of `value` about to be made; returns its ID.
    mutating func announce(_ value: Value) -> UInt64 {
        lastEchoID &+= 1
        expected.append(ChannelEcho(id: lastEchoID, value: value))
        version &+= 1
        return lastEchoID
    }

    /// Stops expecting the echo `id`; returns it, to be released after the lock.
    mutating func remove(_ id: UInt64?) -> ChannelEcho<Value>? {
        guard let id, let index = expected.firstIndex(where: { $0.id == id }) else { return nil }
        version &+= 1
        return expected.remove(at: index)
    }

    /// Stores `value` as the latest; returns the value it replaces, to be released after the lock.
    mutating func replaceLatest(_ value: Value) -> Value? {
        let replaced = latest
        latest = value
        version &+= 1
        return replaced
    }

    /// The set whose echo is `id` starts on `thread`.
    mutating func beginSet(_ id: UInt64, on thread: UInt) {
        setsInProgress.append(
            SetInProgress(thread: thread, echoID: id, deliveries: 0, notificationsBefore: notifications))
    }

    /// The set whose echo is `id` returned on `thread`. `deferred`: the property's gate left it for later
    /// (`ahead`: how many of the gate's operations come first, if it could tell). `dropsUnheard`: a set
    /// during which nothing at all was delivered stored nothing (only with `Equatable` values: a wrong
    /// guess then costs at most a set skipped as equal, never a ping-pong). Returns the echo no longer
    /// expected, to be released after the lock.
    mutating func endSet(_ id: UInt64, on thread: UInt, deferred: Bool, ahead: Int?, dropsUnheard: Bool)
        -> ChannelEcho<Value>?
    {
        guard let index = setsInProgress.firstIndex(where: { $0.thread == thread && $0.echoID == id }) else {
            return nil
        }
        let set = setsInProgress.remove(at: index)
        // The thread delivered notifications of the property during its own set, yet none matched it:
        // the set was made there and then, and the setter stored another value than it was given (a
        // clamp, a normalization). That notification was its echo. (A thread that delivers the property
        // during its set owns its gate then, and delivers its own set too.)
        if set.deliveries > 0 { return remove(id) }
        // A set left for later, with nothing delivered here: its notification is still to come, after the
        // ones queued before it, which are changes this set overwrites. Its echo stays expected as if the
        // set were still in progress (it is not marked returned, so no earlier notification can make it
        // stale) — until the notifications that may come before it have gone by, when the gate told how
        // many those are (see `ChannelEcho.deadline`).
        if deferred {
            if let ahead, let echo = expected.firstIndex(where: { $0.id == id }) {
                // Each of the gate's operations delivers at most one notification to this channel.
                expected[echo].deadline = notifications &+ UInt64(ahead) &+ 1
            }
            return nil
        }
        // The property is known to deliver its changes during the set, yet nothing at all was delivered
        // during this one: the setter stored nothing, and no echo will come — when no other set is in
        // progress (another thread may deliver it later).
        if dropsUnheard, deliversDuringSets, notifications == set.notificationsBefore, setsInProgress.isEmpty {
            return remove(id)
        }
        if let echo = expected.firstIndex(where: { $0.id == id }) { expected[echo].hasReturned = true }
        return nil
    }

    /// The property delivered a change on `thread`. Returns the echoes to compare it with, or `nil` when
    /// none is expected: a change made by someone else, to be sent on.
    mutating func notificationArrived(on thread: UInt) -> [ChannelEcho<Value>]? {
        notifications &+= 1
        for index in setsInProgress.indices where setsInProgress[index].thread == thread {
            setsInProgress[index].deliveries += 1
            deliversDuringSets = true
        }
        return expected.isEmpty ? nil : expected
    }

    /// The notification matched the echo `id`: that echo and the ones before it (sets whose changes it
    /// overwrote, for properties that skip equal sets) are consumed. Returns them, to be released after
    /// the lock.
    mutating func consume(through id: UInt64) -> [ChannelEcho<Value>] {
        let consumed = expected.filter { $0.id <= id }
        expected.removeAll { $0.id <= id }
        version &+= 1
        return consumed
    }

    /// The notification matched no expected echo: drops the stale ones — with no set in progress, those
    /// whose set has returned (its notification went by, or never comes); whatever is in progress, those
    /// whose deadline is reached. Returns them, to be released after the lock. If no echo is left, the
    /// notification is a change made by someone else (``isExpectingNone``).
    mutating func dropStale() -> [ChannelEcho<Value>] {
        let isQuiet = setsInProgress.isEmpty
        let notifications = notifications
        let isStale = { (echo: ChannelEcho<Value>) in
            (isQuiet && echo.hasReturned) || echo.deadline.map { notifications >= $0 } ?? false
        }
        let stale = expected.filter(isStale)
        if !stale.isEmpty {
            expected.removeAll(where: isStale)
            version &+= 1
        }
        return stale
    }

    /// The channel ended: no echo is expected any more. Returns the ones that were, to be released after
    /// the lock.
    mutating func removeAllExpected() -> [ChannelEcho<Value>] {
        let removed = expected
        expected = []
        return removed
    }
}
