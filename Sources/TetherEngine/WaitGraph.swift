import Synchronization

/// Who waits for whom, so that Tether's own waits never close a cycle.
///
/// Three waits in the package block a thread until another thread makes progress (guarantees numbered as
/// in <doc:ThreadingAndLifetimes>):
///
/// - `dispose()` waiting for its subscription's callback running on another thread (guarantee 2) —
///   *firm*: returning early would break the guarantee;
/// - a sender waiting for a full backlog to drain (guarantee 3's bound) — *breakable*: the sender may
///   instead queue past the bound;
/// - a second concurrent `dispose()` of a ``CompositeDisposable`` waiting for the first — *breakable*: it
///   may return early when the first disposer is waiting, directly or not, for the second one.
///
/// Each wait registers an edge "this thread waits for that thread" before parking. A breakable wait that
/// would close a cycle is not started. A firm wait that closes a cycle breaks every breakable wait on it
/// (those threads wake and go on), so the only cycle left is the one guarantee 2 documents: two callbacks
/// that, at the same moment, each dispose the subscription the other is running in.
///
/// Only slow paths come here (a wait is about to park); the registry is a small dictionary behind one lock.
@usableFromInline
package final class WaitGraph: @unchecked Sendable {
    // Safety: `edges` is guarded by `lock`.

    /// One registered wait, owned by the waiting thread.
    @usableFromInline
    package final class Wait: @unchecked Sendable {
        // Safety: every field is immutable except `broken`, an `AtomicFlag`.
        let waiter: UInt
        let target: UInt
        let isBreakable: Bool
        /// Where the waiter parks (woken when the wait is broken).
        let parkingAddress: UInt
        /// Set when a firm wait broke this one: the waiter stops waiting.
        @usableFromInline package let broken = AtomicFlag()

        init(waiter: UInt, target: UInt, isBreakable: Bool, parkingAddress: UInt) {
            self.waiter = waiter
            self.target = target
            self.isBreakable = isBreakable
            self.parkingAddress = parkingAddress
        }

        /// Whether the waiter must stop waiting.
        @inlinable
        package var isBroken: Bool { broken.isSet }
    }

    @usableFromInline
    package static let shared = WaitGraph()

    let lock = Lock()
    var edges: [UInt: Wait] = [:]

    /// Registers that the calling thread is about to wait for `target`, parking on `parkingAddress`.
    ///
    /// - Returns: the registered wait (end it with ``end(_:)``), or `nil` for a breakable wait that would
    ///   close a cycle: then don't wait.
    package func begin(waitingFor target: UInt, breakable: Bool, parkingAddress: UInt) -> Wait? {
        let me = currentThreadID
        let wait = Wait(waiter: me, target: target, isBreakable: breakable, parkingAddress: parkingAddress)
        var toBreak: [Wait] = []
        lock.lock()
        // Follow the chain from the target: does it come back to this thread?
        var cycle: [Wait] = []
        var next = target
        var closesCycle = next == me
        var steps = 0
        while !closesCycle, let edge = edges[next], steps < 4096 {
            cycle.append(edge)
            next = edge.target
            closesCycle = next == me
            steps += 1
        }
        if closesCycle {
            if breakable {
                lock.unlock()
                return nil
            }
            toBreak = cycle.filter { $0.isBreakable && !$0.isBroken }
        }
        edges[me] = wait
        lock.unlock()
        for edge in toBreak {
            edge.broken.store(true)
            ParkingLot.unparkAll(edge.parkingAddress)
        }
        return wait
    }

    /// Removes the calling thread's wait.
    package func end(_ wait: Wait) {
        lock.lock()
        if edges[wait.waiter] === wait { edges[wait.waiter] = nil }
        lock.unlock()
    }
}
