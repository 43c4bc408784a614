import Synchronization

/// A shared number that orders nothing: a statistic, a source of unique ids, a count that a hot path
/// checks against zero, a hint. Every access is relaxed — atomic, so no update is lost and no value is
/// torn, but nothing written before an update is published by it.
///
/// Use it only where a reader acts on the number alone: it must not read other memory on the strength of
/// what it loaded (use ``AtomicFlag``, or state under ``Lock`` / ``LockedState``, for that). The updates to one
/// counter happen in one total order that every thread agrees on, and a thread always sees its own
/// updates: a count that each thread raises and lowers again never reads below that thread's own share.
///
/// ```swift
/// let made = RelaxedCounter()
/// let id = made.add(1)        // 1, then 2, … — unique across threads
/// made.value                   // the count now (or a moment ago)
/// ```
@usableFromInline
package struct RelaxedCounter: ~Copyable, Sendable {
    @usableFromInline let word: Atomic<Int>

    /// A counter holding `initial`.
    @inlinable
    package init(_ initial: Int = 0) {
        word = Atomic(initial)
    }

    /// The number now (relaxed: nothing else is read through it).
    @inlinable
    package var value: Int {
        word.load(ordering: .relaxed)
    }

    /// Adds `delta` (negative to subtract), wrapping on overflow; returns the new value.
    @inlinable
    @discardableResult
    package func add(_ delta: Int) -> Int {
        word.wrappingAdd(delta, ordering: .relaxed).newValue
    }

    /// Replaces the number (a hint that only the latest writer's value matters).
    @inlinable
    package func store(_ value: Int) {
        word.store(value, ordering: .relaxed)
    }
}
