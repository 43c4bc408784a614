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
