/// A sender's wait for room in a bounded backlog (guarantee 3's bound): the one wait protocol of a
/// source's gate (``SerialGate``) and of the hop to a subscriber's actor (``Hop``).
///
/// The sender waits for one thread — the one that will take the backlog: a gate's owner, the thread
/// running an actor's delivery — and registers that in ``WaitGraph`` as a *breakable* wait: it is not
/// started when it would close a cycle of waiting threads (that thread waiting, directly or not, for this
/// sender), and a firm wait that closes one later breaks it. Either way the caller goes on and queues past
/// the bound, so a bound never deadlocks; it only holds a sender back while someone can make room.
package enum RoomWait {
    /// How a wait ended.
    package enum Outcome {
        /// Not started: it would close a cycle of waits, or `target` is the caller. Queue past the bound.
        case notStarted
        /// Parked and woken (or found room under the bucket's mutex): look at the backlog again.
        case woken
        /// Parked, then broken by a firm wait that closed a cycle: queue past the bound.
        case broken
    }

    /// Parks the calling thread on `address` while `stillFull()` holds and the wait is not broken, as a
    /// wait for `target` (a ``currentThreadID``). `stillFull` runs under the parking bucket's mutex: it
    /// may read atomics only. Whoever makes room wakes `address` (``ParkingLot/unparkAll(_:)``).
    @usableFromInline
    package static func park(waitingFor target: UInt, on address: UInt, while stillFull: () -> Bool) -> Outcome {
        guard target != currentThreadID,
            let wait = WaitGraph.shared.begin(waitingFor: target, breakable: true, parkingAddress: address)
        else { return .notStarted }
        ParkingLot.park(on: address) { stillFull() && !wait.isBroken }
        WaitGraph.shared.end(wait)
        return wait.isBroken ? .broken : .woken
    }
}
