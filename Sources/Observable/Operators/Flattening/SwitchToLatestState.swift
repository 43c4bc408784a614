import TetherEngine

/// The logic of `switchToLatest` and `flatMapLatest`: only the latest inner signal is forwarded; a
/// new one replaces (disposes) the previous one, whose events are ignored from then on. The result
/// completes when the outer source has completed and the current inner (if any) has completed; an
/// error from the outer source or the current inner fails it.
///
/// If the outer source or the current inner goes away without a terminal event, the result ends
/// quietly (without `.completed`) when it would otherwise complete.
@usableFromInline
struct SwitchToLatestState<Inner, Subscription>: FlattenOneInnerAtATime {
    @usableFromInline typealias Action = FlattenAction<Inner, Subscription>

    @usableFromInline var current = FlattenCurrentInner<Subscription>()
    @usableFromInline var outer = FlattenOuterPhase.active
    /// The last current inner went away without a terminal event (and none replaced it).
    @usableFromInline var currentWentAway = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable @inline(__always)
    mutating func outerSent(_ inner: Inner) -> Action {
        isFinished ? .none : .subscribe(inner, replacing: current.end())
    }

    @inlinable @inline(__always)
    mutating func outerSending() -> FlattenOuterArrival<Subscription> {
        isFinished ? .ignore : .subscribe(replacing: current.end())
    }

    @inlinable @inline(__always)
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        currentWentAway = false
        return current.start(subscription)
    }

    @inlinable @inline(__always)
    mutating func didSubscribe() -> Action { .none }

    @inlinable @inline(__always)
    mutating func currentCompleted() -> Action { completeIfFinished() }

    @inlinable
    mutating func innerWentAway(_ id: UInt64) -> Action {
        // After the inner's terminal event or its replacement this is no news.
        guard current.isCurrent(id) && !isFinished else { return .none }
        current.end()
        currentWentAway = true
        return completeIfFinished()
    }

    @inlinable
    mutating func disposed() -> [Subscription] {
        current.end().map { [$0] } ?? []
    }

    @inlinable @inline(__always)
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && current.isEmpty else { return .none }
        isFinished = true
        return outer == .wentAway || currentWentAway ? .endQuietly : .complete
    }
}
