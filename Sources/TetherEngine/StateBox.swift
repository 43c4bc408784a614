/// Per-subscription operator state, shared by the operator's closures without runtime exclusivity
/// checks.
///
/// A `var` captured by an escaping closure is boxed, and every access to it pays a dynamic exclusivity
/// check (`swift_beginAccess`, a thread-local lookup, on every value).
/// Operators' state is only touched by one event at a time (a source serializes what it sends, and
/// multi-input operators go through a ``Mailbox``), so the check buys nothing: keep such state here.
@usableFromInline
package final class StateBox<Value> {
    @usableFromInline @exclusivity(unchecked) package var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
