import TetherEngine

/// The logic of `concat` and `concatMap`: one inner signal at a time, in arrival order; later inners
/// wait in a queue until the current one completes. The result completes when the outer source and
/// every queued inner have completed; any error fails it and the queued inners are never started.
///
/// An inner that completes while it is being started does not start the next one from inside that
/// start: ``didSubscribe()`` does, once the start has returned, so the stack does not grow with the
/// number of inners. If the current inner goes away without a terminal event, the queued ones would
/// wait forever: the result ends quietly at once.
@usableFromInline
struct ConcatState<Inner, Subscription>: FlattenOneInnerAtATime {
    @usableFromInline typealias Action = FlattenAction<Inner, Subscription>

    @usableFromInline var current = FlattenCurrentInner<Subscription>()
    /// Inners waiting for their turn.
    @usableFromInline var queue = FIFOBuffer<Inner>()
    @usableFromInline var outer = FlattenOuterPhase.active
    /// The driver is starting an inner (between `.subscribe` and ``didSubscribe()``).
    @usableFromInline var isSubscribing = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable
    var hasQueued: Bool { !queue.isEmpty }

    @inlinable @inline(__always)
    mutating func outerSent(_ inner: Inner) -> Action {
        if isFinished { return .none }
        queue.append(inner)
        return startNextOrComplete()
    }

    /// Always `.handOver`: the inner goes through the queue (``outerSent(_:)``).
    @inlinable @inline(__always)
    mutating func outerSending() -> FlattenOuterArrival<Subscription> { .handOver }

    @inlinable @inline(__always)
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        current.start(subscription)
    }

    @inlinable @inline(__always)
    mutating func didSubscribe() -> Action {
        isSubscribing = false
        return startNextOrComplete()
    }

    @inlinable @inline(__always)
    mutating func currentCompleted() -> Action { startNextOrComplete() }

    @inlinable
    mutating func innerWentAway(_ id: UInt64) -> Action {
        guard current.isCurrent(id) && !isFinished else { return .none }
        isFinished = true
        current.end()
        dropQueue()
        return .endQuietly
    }

    @inlinable
    mutating func disposed() -> [Subscription] {
        dropQueue()
        return current.end().map { [$0] } ?? []
    }

    /// Starts the next queued inner if none is running (unless one is being started: its start
    /// returning picks the next one up), or completes if everything has finished.
    @inlinable @inline(__always)
    mutating func startNextOrComplete() -> Action {
        if isFinished { return .none }
        guard current.isEmpty && hasQueued else { return completeIfFinished() }
        if isSubscribing { return .none }
        let next = queue.removeFirst()
        isSubscribing = true
        return .subscribe(next, replacing: nil)
    }

    @inlinable @inline(__always)
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && current.isEmpty && !hasQueued else { return .none }
        isFinished = true
        return outer == .wentAway ? .endQuietly : .complete
    }

    @inlinable
    mutating func dropQueue() {
        queue = FIFOBuffer()
    }
}
