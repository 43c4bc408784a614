import Dispatch
import TetherEngine
import TetherShims

/// The actor a subscriber was written on, captured by `subscribe`, `bind` and `<~` through their
/// `isolation: isolated (any Actor)? = #isolation` parameter (SE-0420), and the rule for running its
/// callbacks there (<doc:Isolation>, guarantee 8 of <doc:ThreadingAndLifetimes>).
///
/// A callback written in actor-isolated code — a `@MainActor` view model, every closure of a module
/// with default main-actor isolation — belongs to that actor: Swift lets it touch the actor's state
/// without `await`, and may check at run time that it runs there. So Tether calls it on that actor:
/// at once when the event arrives on the actor already (a send from main-actor code, virtual time
/// advanced by a main-actor test), otherwise queued to the actor in order. Subscribers written in
/// nonisolated code keep the plain rule: they run on the thread that delivers.
@usableFromInline
package enum CallerIsolation: Sendable {
    /// The main actor: its work runs on the main dispatch queue (or on the main thread itself in a
    /// program that never started the queue's loop).
    case main
    /// Any other actor.
    case actor(any Actor)

    /// The isolation a subscriber made in `isolation`'s code needs, or `nil` for nonisolated code.
    @inlinable
    package init?(_ isolation: (any Actor)?) {
        guard let isolation else { return nil }
        if isolation === MainActor.shared {
            self = .main
        } else {
            self = .actor(isolation)
        }
    }

    /// Whether the calling thread runs this actor's work now: the main queue or the main thread for
    /// the main actor; for another actor, code running on its executor (a method of the actor, a task
    /// isolated to it), the inside of a hop of Tether's to it, or of the `subscribe` call that captured it.
    ///
    /// Swift offers no public query of the current executor: the runtime's own is asked, behind a
    /// self-test (``RuntimeAssumptions/isRunning(on:)``); without it, only Tether's own hops and
    /// `subscribe` calls count.
    package var isCurrent: Bool {
        switch self {
        case .main:
            guard isOnMainQueue() else { return false }
            MainActorThread.note(currentThreadID)
            return true
        case .actor(let actor):
            return tether_current_actor() == Self.address(of: actor) || RuntimeAssumptions.isRunning(on: actor)
        }
    }

    /// Runs `body`, a subscription's start inside the `subscribe` call that captured this isolation, marked
    /// as running on the actor: what the source sends synchronously while it starts is delivered at once.
    @inlinable
    package func starting(_ body: () -> Void) {
        switch self {
        case .main:
            MainActorThread.note(currentThreadID)
            body()
        case .actor(let actor): Self.markingCurrent(actor, body)
        }
    }

    /// Runs `body` on the actor, after the work already queued there.
    package func enqueue(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .main:
            // The main actor's executor on Linux is the main dispatch queue: a block queued there runs
            // on the main actor, in FIFO order with the other blocks Tether queues there.
            DispatchQueue.main.async(execute: body)
        case .actor(let actor):
            Task { await Self.run(body, on: actor) }
        }
    }

    /// Runs `body` marked as running `actor`'s work on this thread (see ``isCurrent``). Call it only on
    /// the actor.
    @usableFromInline
    package static func markingCurrent<R>(_ actor: any Actor, _ body: () throws -> R) rethrows -> R {
        let previous = tether_current_actor()
        tether_set_current_actor(address(of: actor))
        defer { tether_set_current_actor(previous) }
        return try body()
    }

    private static func run(_ body: @Sendable () -> Void, on actor: isolated any Actor) {
        markingCurrent(actor, body)
    }

    private static func address(of actor: any Actor) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(actor as AnyObject).toOpaque()
    }
}

/// Hands a subscription's events to its subscriber's actor through an ``ActorHop``, into the stage's
/// mailbox, whose disposal fence and reentrancy rules are the core's. The source's events arrive
/// serialized (guarantee 3 of <doc:ThreadingAndLifetimes>), and the hop keeps their order.
@usableFromInline
final class CallerIsolationHandOff<Value, Failure: Error>: EventHandOff, Disposable {
    // Both stored properties are thread-safe; the mailbox (holding the subscriber's closures) is posted to
    // only on the subscriber's actor, by the hop.
    let hop: ActorHop
    @usableFromInline let mailbox: Mailbox<Event<Value, Failure>?>

    @usableFromInline
    init(isolation: CallerIsolation, mailbox: Mailbox<Event<Value, Failure>?>) {
        hop = ActorHop(isolation)
        self.mailbox = mailbox
    }

    @usableFromInline var isDisposed: Bool { mailbox.isDisposed }

    @usableFromInline
    func enqueue(_ event: Event<Value, Failure>?) {
        let mailbox = self.mailbox
        hop.run { mailbox.post(event) }
    }

    @usableFromInline
    func dispose() {
        hop.cancel()
    }
}

extension Signal {
    /// This signal delivered on `isolation`'s actor (``CallerIsolation``), or itself when the subscriber
    /// is nonisolated. The last stage before a subscriber's closures.
    @inlinable
    package func delivered(on isolation: CallerIsolation?) -> Signal {
        guard let isolation else { return self }
        return Signal.handingEvents(of: self) { mailbox, lifetime in
            let handOff = CallerIsolationHandOff(isolation: isolation, mailbox: mailbox)
            lifetime.add(handOff)
            return handOff
        }
    }
}

extension Signal {
    /// This signal subscribed on `hop`'s actor: the recipe runs there (as `subscribe(on:)` runs it on a
    /// scheduler), after what was submitted to the hop before, and its events are sent on from wherever it
    /// sends them. For the closures of code that captured an actor (`Command`'s work), started from
    /// another thread: one hop per command keeps the executions' starts in the order they were made
    /// (a `Task` per start would not).
    package func started(on hop: ActorHop) -> Signal {
        startedElsewhere { start in
            hop.run { hop.isolation.starting(start) }
            return nil
        }
    }
}
