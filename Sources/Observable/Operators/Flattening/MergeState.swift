import TetherEngine

/// The logic of `flatMap` and `flatten`: every inner signal is subscribed as soon as it arrives and
/// all of them are forwarded. The result completes when the outer source and every inner have
/// completed; any error fails it.
///
/// If the outer source or an inner goes away without a terminal event (a released subject), the
/// result can never complete: it ends quietly once the others have finished.
@usableFromInline
struct MergeState<Inner, Subscription>: FlattenStateMachine {
    @usableFromInline typealias Action = FlattenAction<Inner, Subscription>

    /// The subscriptions of the inners that have not finished, by id.
    @usableFromInline var live: [UInt64: Subscription] = [:]
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var outer = FlattenOuterPhase.active
    /// An inner went away without a terminal event.
    @usableFromInline var anInnerWentAway = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable @inline(__always)
    mutating func outerSent(_ inner: Inner) -> Action {
        isFinished ? .none : .subscribe(inner, replacing: nil)
    }

    @inlinable @inline(__always)
    mutating func outerSending() -> FlattenOuterArrival<Subscription> {
        isFinished ? .ignore : .subscribe(replacing: nil)
    }

    @inlinable @inline(__always)
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        let id = nextID
        nextID &+= 1
        live[id] = subscription
        return id
    }

    @inlinable @inline(__always)
    mutating func didSubscribe() -> Action { .none }

    @inlinable @inline(__always)
    func forwardsValue(from id: UInt64) -> Bool { !isFinished }

    @inlinable @inline(__always)
    mutating func innerCompleted(_ id: UInt64) -> Action {
        live[id] = nil
        return completeIfFinished()
    }

    @inlinable @inline(__always)
    mutating func innerFailed(_ id: UInt64) -> Action {
        outerFailed()
    }

    @inlinable
    mutating func innerWentAway(_ id: UInt64) -> Action {
        // After the inner's terminal event this is no news.
        guard live.removeValue(forKey: id) != nil else { return .none }
        anInnerWentAway = true
        return completeIfFinished()
    }

    @inlinable
    func subscription(of id: UInt64) -> Subscription? { live[id] }

    @inlinable
    func isLive(_ id: UInt64) -> Bool { live[id] != nil }

    @inlinable
    mutating func disposed() -> [Subscription] {
        let subscriptions = Array(live.values)
        live = [:]
        return subscriptions
    }

    @inlinable @inline(__always)
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && live.isEmpty else { return .none }
        isFinished = true
        return outer == .wentAway || anInnerWentAway ? .endQuietly : .complete
    }
}
