import TetherEngine

/// What a ``FlattenStateMachine`` tells its driver to do after an event.
@usableFromInline
enum FlattenAction<Inner, Subscription> {
    /// Nothing.
    case none
    /// Dispose `replacing` (if any), then subscribe to `inner` (see ``FlattenStateMachine`` for the
    /// calls that follow).
    case subscribe(Inner, replacing: Subscription?)
    /// Send `.completed` downstream, then end the subscription.
    case complete
    /// End the subscription without a terminal event: it can never complete (an input went away
    /// without one).
    case endQuietly
    /// Send the error that caused the event downstream, then end the subscription.
    case fail
}

extension FlattenAction: Equatable where Inner: Equatable, Subscription: Equatable {}

/// What a ``FlattenStateMachine`` does with an inner signal the outer source is sending, asked before the
/// driver hands the inner over (``FlattenStateMachine/outerSending()``): the common case — the inner is
/// subscribed at once — then needs no copy of it.
@usableFromInline
enum FlattenOuterArrival<Subscription> {
    /// Nothing: the inner is dropped (as an `outerSent(_:)` returning `.none` without a change).
    case ignore
    /// Dispose `replacing` (if any), then subscribe to the inner the driver holds (as an `outerSent(_:)`
    /// returning `.subscribe(inner, replacing:)`); the state has been updated accordingly.
    case subscribe(replacing: Subscription?)
    /// The state machine needs the inner itself: call `outerSent(_:)` with it.
    case handOver
}

extension FlattenOuterArrival: Equatable where Subscription: Equatable {}
