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

    /// The inner being forwarded, and its subscription.
    @usableFromInline var current: (id: UInt64, subscription: Subscription)?
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var outer = FlattenOuterPhase.active
    /// The last current inner went away without a terminal event (and none replaced it).
    @usableFromInline var currentWentAway = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable
    mutating func outerSent(_ inner: Inner) -> Action {
        if isFinished { return .none }
        let previous = current?.subscription
        current = nil
        return .subscribe(inner, replacing: previous)
    }

    @inlinable
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

    @inlinable
    mutating func outerFailed() -> Action {
        if isFinished { return .none }
        isFinished = true
        return .fail
    }

    @inlinable
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        let id = nextID
        nextID &+= 1
        current = (id, subscription)
        currentWentAway = false
        return id
    }

    @inlinable
    mutating func didSubscribe() -> Action { .none }

    @inlinable
    func isCurrent(_ id: UInt64) -> Bool { current?.id == id }

    @inlinable
    func forwardsValue(from id: UInt64) -> Bool { !isFinished && isCurrent(id) }

    @inlinable
    mutating func innerCompleted(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        current = nil
        return completeIfFinished()
    }

    @inlinable
    mutating func innerFailed(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        return outerFailed()
    }

    @inlinable
    mutating func innerWentAway(_ id: UInt64) -> Action {
        // After the inner's terminal event or its replacement this is no news.
        guard isCurrent(id) else { return .none }
        current = nil
        currentWentAway = true
        return completeIfFinished()
    }

    @inlinable
    func subscription(of id: UInt64) -> Subscription? {
        isCurrent(id) ? current?.subscription : nil
    }

    @inlinable
    mutating func disposed() -> [Subscription] {
        guard let subscription = current?.subscription else { return [] }
        current = nil
        return [subscription]
    }

    @inlinable
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && current == nil else { return .none }
        isFinished = true
        return outer == .wentAway || currentWentAway ? .endQuietly : .complete
    }
}
