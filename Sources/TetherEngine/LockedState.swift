/// A value behind the package's ``Lock``, in one object: the synchronized state of a class whose other
/// stored properties are immutable, so that the class can be checked `Sendable` (final, only `let`s of
/// `Sendable` types) with the one unchecked conformance here, where the synchronization lives.
///
/// Every access goes through ``withLock(_:)``. Rules, as for ``Lock``: keep the body to a few loads and
/// stores of the state — never call user code (a callback, a `deinit` that may run one) inside it, never
/// lock again from inside it. Return what must be released or called, and act on it after `withLock`
/// returns.
///
/// `Sendable` only when the state is: a non-`Sendable` value stored by one thread would otherwise be read
/// by another.
///
/// `withLock` is inlinable, so that its body is specialized and inlined where it is used: it costs what
/// the lock and the body cost, as a hand-written `lock(); …; unlock()` would.
///
/// ```swift
/// final class Registry: Sendable {
///     private let names = LockedState<[Int: String]>([:])
///     func add(_ id: Int, _ name: String) { names.withLock { $0[id] = name } }
///     var count: Int { names.withLock { $0.count } }
/// }
/// ```
@usableFromInline
package final class LockedState<State> {
    @usableFromInline let lock = Lock()
    @usableFromInline var state: State

    /// Guards `state` from now on.
    @inlinable
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, under the lock; returns what `body` returns.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Safety: `state` is read and written only inside `withLock`, under `lock`; it holds `Sendable` values only.
extension LockedState: @unchecked Sendable where State: Sendable {}
