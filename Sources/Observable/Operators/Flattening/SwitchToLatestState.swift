/// The logic of `switchToLatest` and `flatMapLatest`: only the latest inner signal is forwarded; a
/// new one replaces (disposes) the previous one, whose events are ignored from then on. The result
/// completes when the outer source has completed and the current inner (if any) has completed; an
/// error from the outer source or the current inner fails it.
///
/// If the outer source or the current inner goes away without a terminal event, the result ends
/// quietly (without `.completed`) when it would otherwise complete.
@usableFromInline
struct SwitchToLatestState<Inner, Subscription>: FlattenStateMachine {
    @usableFromInline typealias Action = FlattenAction<Inner, Subscription>

    /// The id of the inner being forwarded (two fields rather than an optional tuple: reading the id
    /// then copies no reference).
    @usableFromInline var currentID: UInt64?
    /// The subscription of the inner being forwarded (set exactly when `currentID` is).
    @usableFromInline var currentSubscription: Subscription?
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var outer = FlattenOuterPhase.active
    /// The last current inner went away without a terminal event (and none replaced it).
    @usableFromInline var currentWentAway = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable @inline(__always)
    mutating func outerSent(_ inner: Inner) -> Action {
        if isFinished { return .none }
        let previous = currentSubscription
        currentID = nil
        currentSubscription = nil
        return .subscribe(inner, replacing: previous)
    }

    @inlinable @inline(__always)
    mutating func outerCompleted() -> Action {
        outer = .completed
        return completeIfFinished()
    }

    @inlinable
    mutating func outerWentAway() -> Action {
        guard outer == .active else { return .none }
        outer = .wentAway
        return completeIfFinished()
    }

    @inlinable @inline(__always)
    mutating func outerFailed() -> Action {
        if isFinished { return .none }
        isFinished = true
        return .fail
    }

    @inlinable @inline(__always)
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        let id = nextID
        nextID &+= 1
        currentID = id
        currentSubscription = subscription
        currentWentAway = false
        return id
    }

    @inlinable @inline(__always)
    mutating func didSubscribe() -> Action { .none }

    @inlinable @inline(__always)
    func isCurrent(_ id: UInt64) -> Bool { currentID == id }

    @inlinable @inline(__always)
    func forwardsValue(from id: UInt64) -> Bool { !isFinished && isCurrent(id) }

    @inlinable @inline(__always)
    mutating func innerCompleted(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        currentID = nil
        currentSubscription = nil
        return completeIfFinished()
    }

    @inlinable @inline(__always)
    mutating func innerFailed(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        return outerFailed()
    }

    @inlinable @inline(__always)
    mutating func innerWentAway(_ id: UInt64) -> Action {
        // After the inner's terminal event or its replacement this is no news.
        guard isCurrent(id) else { return .none }
        currentID = nil
        currentSubscription = nil
        currentWentAway = true
        return completeIfFinished()
    }

    @inlinable
    func subscription(of id: UInt64) -> Subscription? {
        isCurrent(id) ? currentSubscription : nil
    }

    @inlinable
    mutating func disposed() -> [Subscription] {
        guard let subscription = currentSubscription else { return [] }
        currentID = nil
        currentSubscription = nil
        return [subscription]
    }

    @inlinable @inline(__always)
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && currentID == nil else { return .none }
        isFinished = true
        return outer == .wentAway || currentWentAway ? .endQuietly : .complete
    }
}
