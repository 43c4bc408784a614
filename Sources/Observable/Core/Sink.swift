/// The internal receiving end of a subscription: one closure that takes events.
///
/// Operators compose sinks without locks: a source serializes what it sends (see ``Observer`` and the
/// subjects), so a chain of synchronous stages runs on one thread at a time and needs no gate of its
/// own. `@inlinable` so that a pipeline built in the user's module is specialized there.
@usableFromInline
package struct Sink<Value, Failure: Error> {
    @usableFromInline
    package let action: (Event<Value, Failure>) -> Void

    @inlinable
    package init(_ action: @escaping (Event<Value, Failure>) -> Void) {
        self.action = action
    }

    @inlinable
    package func send(_ event: Event<Value, Failure>) {
        action(event)
    }
}
