import TetherEngine

/// The internal receiving end of a subscription: a closure that takes events, or one that takes values
/// only (a subscriber interested in nothing but values).
///
/// Operators compose sinks without locks: a source serializes what it sends (see ``Observer`` and the
/// subjects), so a chain of synchronous stages runs on one thread at a time and needs no gate of its
/// own. `@inlinable` so that a pipeline built in the user's module is specialized there.
///
/// The values-only form holds the subscriber's closure as it is: wrapped in an event closure it would
/// need a heap context of its own (holding the wrapped closure) for every live subscription. The sink is
/// the enum itself, not a struct wrapping one: the optimizer then reads a sink stored in an object without
/// copying it (a struct around a two-closure enum was copied through an outlined copy, a retain and a
/// release per event).
@usableFromInline
package enum Sink<Value, Failure: Error> {
    /// Takes every event.
    case events((Event<Value, Failure>) -> Void)
    /// Takes the values; ignores the terminal event.
    case values((Value) -> Void)

    @inlinable
    package init(_ action: @escaping (Event<Value, Failure>) -> Void) {
        self = .events(action)
    }

    /// Sends `.next(value)`: a values-only sink takes `value` without an event being made and matched.
    /// (For an event sink the event is made here, which copies `value`: callers holding the event already
    /// and sending values that are not trivially copyable pass the event instead.)
    @inlinable
    package func send(next value: Value) {
        switch self {
        case .events(let action):
            action(.next(value))
        case .values(let next):
            next(value)
        }
    }

    @inlinable
    package func send(_ event: Event<Value, Failure>) {
        switch self {
        case .events(let action):
            action(event)
        case .values(let next):
            if case .next(let value) = event { next(value) }
        }
    }
}
