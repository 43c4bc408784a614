/// A result set once, by whichever thread gets there first, and a wait for it that parks the waiting
/// thread (through ``ParkingLot``) instead of spinning: the one-shot wait of the blocking operators
/// (`first()`, `wait()`, `toArray()`).
///
/// Settling never waits. A later `settle` changes nothing and returns `false`, so competing outcomes (a
/// value, an error, the subscription ending without a terminal event) can each try, and the first wins.
package final class SettledOnce<Result>: @unchecked Sendable {
    // Safety: `result` is written only by the thread that raised `claimed`, before it stores `settled`
    // (releasing); it is read only after reading `settled` set (acquiring).

    /// Raised by the one settler that wins.
    private let claimed = AtomicFlag()
    /// Set once `result` is written.
    private let settled = AtomicFlag()
    private var result: Result?

    package init() {}

    /// Whether a result was set (or is being set): a later ``settle(_:)`` will change nothing.
    package var isSettled: Bool { claimed.isSet }

    /// Sets the result and wakes the waiter, unless a result was already set. Returns whether it set it.
    @discardableResult
    package func settle(_ value: Result) -> Bool {
        guard claimed.raise() else { return false }
        result = value
        settled.store(true)
        ParkingLot.unparkAll(parkingAddress(of: self))
        return true
    }

    /// Parks the calling thread until the result is set, then returns it. A thread that settles between
    /// this thread's check and its park is seen: ``ParkingLot/park(on:while:)`` checks again under its
    /// bucket's lock, where the settler's wake-up must also go.
    package func wait() -> Result {
        let address = parkingAddress(of: self)
        while !settled.isSet {
            ParkingLot.park(on: address) { !settled.isSetRelaxed }
        }
        return result!
    }
}
