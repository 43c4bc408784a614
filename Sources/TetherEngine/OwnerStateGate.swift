/// A ``SerialGate`` with state that only its owner touches: the thread performing one of the gate's
/// operations (the body of ``SerialGate/runIfIdle(_:perform:)``, or a `perform`), one owner at a time.
///
/// The state needs no lock of its own: the gate hands its ownership from one owner to the next with
/// acquire and release (its word), and that orders one owner's accesses to the state before the next
/// one's, as it does the operations. ``withOwnerState(_:)`` checks in debug builds that the calling
/// thread owns the gate, so a use from anywhere else traps in tests rather than racing.
///
/// A source keeps here what its deliveries use and nobody else reads — an observer's sink — so that the
/// source itself holds only constants and `Sendable` parts, and the compiler checks its conformance.
///
/// ```swift
/// let gate = OwnerStateGate<Int, [Int]>(state: [])
/// _ = gate.runIfIdle {
///     gate.withOwnerState { $0.append(1) }
/// } perform: { _ in }
/// ```
@usableFromInline
package final class OwnerStateGate<Op, State>: SerialGate<Op>, @unchecked Sendable {
    // Safety: `state` is read and written only through `withOwnerState`, by the gate's owner (asserted in
    // debug builds); ownership passes between threads through the gate's word, with acquire and release.
    @usableFromInline @exclusivity(unchecked) var state: State

    /// A gate whose owners start from `state`.
    @inlinable
    package init(state: State) {
        self.state = state
        super.init()
    }

    /// Runs `body` with the state. The calling thread must own the gate (be performing one of its
    /// operations). Keep `body` to reading and writing the state: copy out what user code needs and call
    /// it after `body` returns.
    @inlinable
    package func withOwnerState<Result>(_ body: (inout State) -> Result) -> Result {
        assert(isOwnedByCurrentThread, "OwnerStateGate: the state was used by a thread that does not own the gate")
        return body(&state)
    }
}
