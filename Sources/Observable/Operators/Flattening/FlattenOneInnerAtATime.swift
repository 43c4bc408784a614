import TetherEngine

/// A ``FlattenStateMachine`` that forwards one inner signal at a time, its ``FlattenCurrentInner``
/// (``SwitchToLatestState``, ``ConcatState``): what the current inner's events do is the same for both,
/// up to what follows the current inner's completion.
@usableFromInline
protocol FlattenOneInnerAtATime: FlattenStateMachine {
    /// The inner being forwarded.
    var current: FlattenCurrentInner<Subscription> { get set }

    /// The current inner completed and has been ended: what comes next.
    mutating func currentCompleted() -> FlattenAction<Inner, Subscription>
}

extension FlattenOneInnerAtATime {
    @inlinable @inline(__always)
    func forwardsValue(from id: UInt64) -> Bool { !isFinished && current.isCurrent(id) }

    @inlinable @inline(__always)
    mutating func innerCompleted(_ id: UInt64) -> FlattenAction<Inner, Subscription> {
        guard current.isCurrent(id) && !isFinished else { return .none }
        current.end()
        return currentCompleted()
    }

    @inlinable @inline(__always)
    mutating func innerFailed(_ id: UInt64) -> FlattenAction<Inner, Subscription> {
        current.isCurrent(id) ? outerFailed() : .none
    }

    @inlinable
    func subscription(of id: UInt64) -> Subscription? { current.subscription(of: id) }

    @inlinable @inline(__always)
    func isLive(_ id: UInt64) -> Bool { current.isCurrent(id) }
}
