import TetherEngine

/// The logic of one flattening strategy (merge, concat, switch to latest), as a plain value that
/// ``FlattenDriver`` feeds events into.
///
/// A state machine does no I/O: it subscribes nothing, sends nothing, disposes nothing and takes no
/// lock. Each event is a `mutating` method returning a ``FlattenAction`` that tells the driver what
/// to do. The driver calls it only from its mailbox's current owner, so it needs no synchronization.
///
/// `Inner` is what the driver subscribes (an inner signal); `Subscription` is what the driver holds
/// for a started inner (its lifetime) and hands back to dispose. Both are opaque here, so the state
/// machines are unit-tested with plain values.
///
/// The order of calls for one inner: an action `.subscribe(inner, …)`; the driver makes the inner's
/// subscription, registers it with ``willSubscribe(_:)`` (which names the inner with an id), starts
/// the inner, and calls ``didSubscribe()`` when the start returns — the events the inner sends
/// during its start arrive in between.
@usableFromInline
protocol FlattenStateMachine {
    associatedtype Inner
    associatedtype Subscription

    init()

    /// The result has ended (sent its terminal event, or will never send one): every later event is
    /// ignored.
    var isFinished: Bool { get set }
    /// How far the outer source has got.
    var outer: FlattenOuterPhase { get set }

    /// The outer source sent an inner signal.
    mutating func outerSent(_ inner: Inner) -> FlattenAction<Inner, Subscription>
    /// The outer source is sending an inner signal, which the driver still holds: what to do with it. Returns
    /// `.subscribe(replacing:)` or `.ignore` only where ``outerSent(_:)`` would return `.subscribe(inner,
    /// replacing:)` or `.none`, with the same change to the state; `.handOver` (changing nothing) where the
    /// state machine needs the inner itself, when the driver then calls ``outerSent(_:)``.
    mutating func outerSending() -> FlattenOuterArrival<Subscription>
    /// `.complete` or `.endQuietly` if the outer source has ended and no inner is live or waiting
    /// (and marks the state finished), `.none` otherwise.
    mutating func completeIfFinished() -> FlattenAction<Inner, Subscription>

    /// The driver is about to start the inner it was told to subscribe, in `subscription`: returns the
    /// inner's id.
    mutating func willSubscribe(_ subscription: Subscription) -> UInt64
    /// The start of the inner registered last has returned.
    mutating func didSubscribe() -> FlattenAction<Inner, Subscription>

    /// Whether a value the inner `id` sent is forwarded.
    func forwardsValue(from id: UInt64) -> Bool
    /// The inner `id` completed.
    mutating func innerCompleted(_ id: UInt64) -> FlattenAction<Inner, Subscription>
    /// The inner `id` failed.
    mutating func innerFailed(_ id: UInt64) -> FlattenAction<Inner, Subscription>
    /// The inner `id`'s subscription ended without a terminal event (or after one, or after it was
    /// replaced or disposed).
    mutating func innerWentAway(_ id: UInt64) -> FlattenAction<Inner, Subscription>

    /// The subscription of the live inner `id`, if it is live.
    func subscription(of id: UInt64) -> Subscription?
    /// Whether the inner `id` is live: subscribed, and neither ended, replaced nor dropped. For an inner
    /// that is not live, ``innerWentAway(_:)`` must return `.none` and change nothing (the driver skips
    /// the call then).
    func isLive(_ id: UInt64) -> Bool
    /// The whole subscription was disposed: returns the subscriptions of the live inners, which the
    /// driver disposes, and forgets everything.
    mutating func disposed() -> [Subscription]
}

extension FlattenStateMachine {
    /// The outer source completed.
    @inlinable @inline(__always)
    mutating func outerCompleted() -> FlattenAction<Inner, Subscription> {
        outer = .completed
        return completeIfFinished()
    }

    /// The outer source's subscription ended without a terminal event (or after one).
    @inlinable
    mutating func outerWentAway() -> FlattenAction<Inner, Subscription> {
        guard outer == .active else { return .none }
        outer = .wentAway
        return completeIfFinished()
    }

    /// The outer source failed (or an inner whose errors are forwarded did).
    @inlinable @inline(__always)
    mutating func outerFailed() -> FlattenAction<Inner, Subscription> {
        if isFinished { return .none }
        isFinished = true
        return .fail
    }
}
