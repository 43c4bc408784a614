import TetherEngine

/// Runs work on a subscriber's actor in the order it was submitted, from any thread, with the delivery
/// rules of the core (the engine's ``Hop``, whose rules are ``HopState``'s):
///
/// - **Order.** Work submitted on the actor while nothing is queued runs at once; anything else is queued
///   and run on the actor by one job at a time, in submission order whichever thread submitted it (a plain
///   `Task` per piece would not keep it).
/// - **Bound (guarantee 3).** At most a source's backlog (4,096 pieces) waits. A sender off the actor that
///   finds the backlog full parks until the actor's job takes the batch (or the hop is cancelled) — when it
///   knows which thread it waits for: the thread running the hop's job, or for the main actor the thread
///   that last ran the main actor's work for Tether (``MainActorThread``) — and only when ``WaitGraph``
///   finds that the wait closes no cycle; otherwise it queues past the bound, as a source's gate does.
/// - **Fairness.** A job runs the batch it took when it started, then queues a new job behind whatever
///   else the actor has to do (the main queue's other blocks, the actor's other tasks).
/// - **Cancel.** `cancel()` drops what is queued, wakes the parked senders, and stops a job between two
///   pieces: nothing submitted before it runs after it, once it returns on the actor — the rule of a
///   disposed subscription.
package typealias ActorHop = Hop<CallerIsolation>

extension CallerIsolation: HopTarget {
    /// For the main actor, the thread that last ran its work for Tether; for another actor, unknown (Swift
    /// does not say which thread runs an actor's next job).
    package var expectedThread: UInt {
        if case .main = self { return MainActorThread.last }
        return 0
    }

    package func jobStarts(on thread: UInt) {
        if case .main = self { MainActorThread.note(thread) }
    }
}

extension Hop where Target == CallerIsolation {
    /// The actor the hop runs work on.
    package var isolation: CallerIsolation { target }
}

/// The thread that last ran the main actor's work for Tether (a hop's job, a subscription started there):
/// whom a sender waiting for room in a main-actor hop waits for, when no job of that hop runs yet.
@usableFromInline
package enum MainActorThread {
    /// The thread's id, as a bit pattern: a hint, read for no other memory (relaxed).
    private static let thread = RelaxedCounter()

    /// The thread, or 0 before the main actor ran anything of Tether's.
    package static var last: UInt { UInt(bitPattern: thread.value) }

    /// Notes that `thread` runs the main actor's work now.
    @usableFromInline
    package static func note(_ thread: UInt) {
        let id = Int(bitPattern: thread)
        if Self.thread.value != id { Self.thread.store(id) }
    }
}
