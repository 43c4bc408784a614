/// The logic of `concat` and `concatMap`: one inner signal at a time, in arrival order; later inners
/// wait in a queue until the current one completes. The result completes when the outer source and
/// every queued inner have completed; any error fails it and drops the queue.
///
/// An inner that completes while it is being started does not start the next one from inside that
/// start: ``didSubscribe()`` does, once the start has returned, so the stack does not grow with the
/// number of inners. If the current inner goes away without a terminal event, the queued ones would
/// wait forever: the result ends quietly at once.
@usableFromInline
struct ConcatState<Inner, Subscription>: FlattenStateMachine {
    @usableFromInline typealias Action = FlattenAction<Inner, Subscription>

    /// The inner being forwarded, and its subscription.
    @usableFromInline var current: (id: UInt64, subscription: Subscription)?
    /// Inners waiting for their turn, from `queueHead` on.
    @usableFromInline var queue: [Inner] = []
    @usableFromInline var queueHead = 0
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var outer = FlattenOuterPhase.active
    /// The driver is starting an inner (between `.subscribe` and ``didSubscribe()``).
    @usableFromInline var isSubscribing = false
    @usableFromInline var isFinished = false

    @inlinable
    init() {}

    @inlinable
    var hasQueued: Bool { queueHead < queue.count }

    @inlinable
    mutating func outerSent(_ inner: Inner) -> Action {
        if isFinished { return .none }
        queue.append(inner)
        return startNextOrComplete()
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
        dropQueue()
        return .fail
    }

    @inlinable
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64 {
        let id = nextID
        nextID &+= 1
        current = (id, subscription)
        return id
    }

    @inlinable
    mutating func didSubscribe() -> Action {
        isSubscribing = false
        return startNextOrComplete()
    }

    @inlinable
    func isCurrent(_ id: UInt64) -> Bool { current?.id == id }

    @inlinable
    func forwardsValue(from id: UInt64) -> Bool { !isFinished && isCurrent(id) }

    @inlinable
    mutating func innerCompleted(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        current = nil
        return startNextOrComplete()
    }

    @inlinable
    mutating func innerFailed(_ id: UInt64) -> Action {
        guard isCurrent(id) else { return .none }
        return outerFailed()
    }

    @inlinable
    mutating func innerWentAway(_ id: UInt64) -> Action {
        guard isCurrent(id) && !isFinished else { return .none }
        isFinished = true
        current = nil
        dropQueue()
        return .endQuietly
    }

    @inlinable
    func subscription(of id: UInt64) -> Subscription? {
        isCurrent(id) ? current?.subscription : nil
    }

    @inlinable
    mutating func disposed() -> [Subscription] {
        dropQueue()
        guard let subscription = current?.subscription else { return [] }
        current = nil
        return [subscription]
    }

    /// Starts the next queued inner if none is running (unless one is being started: its start
    /// returning picks the next one up), or completes if everything has finished.
    @inlinable
    mutating func startNextOrComplete() -> Action {
        if isFinished { return .none }
        guard current == nil && hasQueued else { return completeIfFinished() }
        if isSubscribing { return .none }
        let next = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead >= 32 && queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        isSubscribing = true
        return .subscribe(next, replacing: nil)
    }

    @inlinable
    mutating func completeIfFinished() -> Action {
        guard outer != .active && !isFinished && current == nil && !hasQueued else { return .none }
        isFinished = true
        return outer == .wentAway ? .endQuietly : .complete
    }

    @inlinable
    mutating func dropQueue() {
        queue = []
        queueHead = 0
    }
}
