import TetherEngine

/// A new subscriber of a source that calls it on subscribing — a ``MutableProperty``'s current value, a
/// ``BehaviorSubject``'s latest value, a ``ReplaySubject``'s replay — catching up on its own thread.
///
/// Such a subscriber joins in place, as a plain ``Subject``'s does (see "Joins" in `SubjectCore`): under
/// the source's lock it reads what it must receive first (the initial events) and takes its place in the
/// source's order, and it neither goes through the source's gate nor waits for its owner. So `subscribe`
/// never delivers other subscribers' values on the subscribing thread — where they might need a lock the
/// caller holds (guarantee 2 of <doc:ThreadingAndLifetimes>).
///
/// The joining thread (the *joiner*) then calls its own subscriber with the initial events. Meanwhile the
/// source's owner may deliver events sent after the join: to this subscriber it does not call them but
/// appends them to ``backlog`` (under the source's lock). When the joiner has delivered everything, it
/// takes the backlog under the lock and delivers it, until it finds it empty — and then, in the same
/// critical section, unlinks the catch-up: from then on the owner calls the subscriber itself. So the
/// subscriber receives the initial events and then every later event, in the source's order, from one
/// thread at a time; the joiner calls nobody else's subscriber.
///
/// **Disposal.** The catch-up is a source with one subscription for the ``CallbackRendezvous`` (its
/// `owner` is the joiner, or 0 once it is done): the joiner checks the subscription's disposed flag
/// before each call and acknowledges a disposal it finds; a disposer that finds the catch-up linked waits
/// in ``waitForJoiner()`` for the joiner's callback in flight, then waits for the source's owner as
/// usual.
///
/// **Falling behind.** A joiner slower than the flood the owner delivers would never catch up, and its
/// backlog would grow without bound. So when ``backlogLimit`` events were handed over while it delivered,
/// the joiner gives up — if another thread owns the source's gate (a flood is being delivered): it puts
/// back what it has not delivered, queues an operation that makes the owner deliver the backlog and
/// unlink the catch-up (`flush`, in order with the events: everything performed before it is in the
/// backlog), and returns; the owner then calls the subscriber at the subscriber's pace, and the gate's
/// bounded backlog holds the senders back as for any slow subscriber. (When, at that moment, the gate is
/// idle or the joiner's own, there is no deliverer to give it to: the joiner goes on, and looks again once
/// another backlog's worth was handed over.)
///
/// **The end.** A terminal event in the backlog is delivered by the joiner, which then ends the subscription
/// itself; so does a source that went away (``handOverEnd()``), after the backlog. The owner, which may be
/// running other subscribers' callbacks, never waits for a joiner.
@usableFromInline
final class JoinCatchUp<Value, Failure: Error> {
    // Not `Sendable`: reached only through its subscriber's entry, which the source's gate synchronizes.
    // `backlog` and `endsAfterBacklog` are guarded by the source's lock; `handedOver` is written
    // under it. `fence` and `handedOver` are the engine's thread-safe state. The events in `backlog` cross from the
    // owner's thread to the joiner's only when the source itself is used from several threads, which the
    // compiler allows only when its values are `Sendable` (the public sources are `Sendable` under that
    // condition alone); the sink is called by one thread at a time (the joiner, then the owner after the
    // catch-up is unlinked under the lock, or after the `flush`), as for any subscriber.

    /// Events the owner handed over while the joiner was catching up. Guarded by the source's lock.
    @usableFromInline @exclusivity(unchecked) var backlog: [Event<Value, Failure>] = []
    /// Set by the owner when the source went away: after the backlog, the subscription ends without a
    /// terminal event. Guarded by the source's lock.
    @usableFromInline @exclusivity(unchecked) var endsAfterBacklog = false
    /// How many events were handed over since the joiner last took the backlog: written under the
    /// source's lock, read by the joiner between its callbacks without it.
    @usableFromInline let handedOver = RelaxedCounter()

    /// How many events may be handed over while the joiner delivers before it gives the catch-up to the
    /// owner (the gate's bound on its own backlog).
    @inlinable
    static var backlogLimit: Int { SerialGate<Void>.backlogLimit }
    /// The disposal fence of the joiner's callbacks, held by the joining thread while it catches up.
    @usableFromInline let fence = SoleSubscriptionFence()

    /// A catch-up for the calling thread; publish it to the owner (and disposers) under the source's lock.
    @inlinable
    init() {}

    @inlinable
    var address: UInt { parkingAddress(of: self) }

    /// Called by the owner, under the source's lock, instead of calling the subscriber with `event`.
    @inlinable
    func handOver(_ event: Event<Value, Failure>) {
        backlog.append(event)
        handedOver.add(1)
    }

    /// Called by the owner under the source's lock when it performs the `flush` the joiner queued: takes
    /// the backlog (to deliver with ``deliver(takenOver:through:)`` outside the lock), and whether the
    /// subscription ends after it (the source went away).
    @inlinable
    func takeOver() -> (backlog: [Event<Value, Failure>], ends: Bool) {
        let taken = backlog
        backlog = []
        return (taken, endsAfterBacklog)
    }

    /// Called by the owner performing the `flush`, outside the lock: calls `call` with each event taken
    /// over, in order, up to a terminal event (`call` is the source's fenced call of the subscriber);
    /// returns whether the subscription is over — then the owner ends it.
    @inlinable
    static func deliver(
        takenOver taken: (backlog: [Event<Value, Failure>], ends: Bool),
        through call: (Event<Value, Failure>) -> Void
    ) -> Bool {
        for event in taken.backlog {
            call(event)
            if event.isTerminal { return true }
        }
        return taken.ends
    }

    /// Called by the owner, under the source's lock, when the source went away: the subscription ends
    /// after the backlog.
    @inlinable
    func handOverEnd() {
        endsAfterBacklog = true
    }

    /// Called by the joiner after it joined (outside the source's lock): delivers `initial`, then the
    /// backlog, until it is empty; then, under `gate`'s lock (the source's), calls `unlink` (which must make
    /// the owner call the subscriber from now on, and account for this catch-up's end), and returns. After
    /// delivering a terminal event, or the backlog of a source that went away, it calls `end` (which ends
    /// the subscription) and delivers nothing more; after finding the subscription disposed it delivers
    /// nothing more.
    ///
    /// When it falls behind (see "Falling behind" in the type's notes) it calls `giveToOwner` outside the
    /// lock, which queues the source's `flush` for this subscriber when another thread owns the gate, and
    /// returns whether it did; then the catch-up stays linked for the owner, and `run` returns.
    ///
    /// `send` calls the subscriber (through its entry's ``SerializedCallbacks``); `isDisposed` reads the
    /// subscription's disposed flag (at each callback boundary).
    @inlinable
    func run<Op>(
        initial: some Collection<Event<Value, Failure>>, send: (Event<Value, Failure>) -> Void,
        gate: SerialGate<Op>, isDisposed: () -> Bool, giveToOwner: () -> Bool, unlink: () -> Void, end: () -> Void
    ) {
        var outcome = deliver(initial, send: send, isDisposed: isDisposed)
        while true {
            var step = gate.withLock { () -> Step in
                if case .behind(let undelivered) = outcome {
                    backlog = undelivered + backlog
                    return .behind
                }
                // Behind: while delivering (above), or in what was handed over meanwhile.
                if outcome == .caughtUp && backlog.count >= Self.backlogLimit { return .behind }
                return takeBacklogLocked(&outcome, unlink: unlink)
            }
            if case .behind = step {
                if giveToOwner() {
                    outcome = .behind([])
                    break
                }
                // Nobody else delivers: go on (the next check counts only what is handed over from now).
                outcome = .caughtUp
                step = gate.withLock { takeBacklogLocked(&outcome, unlink: unlink) }
            }
            // A finished run's rest is released here, outside the lock: a value's deinit is user code.
            guard case .deliver(let batch) = step else { break }
            outcome = deliver(batch, send: send, isDisposed: isDisposed)
        }
        fence.leave(wakingAt: address)
        if outcome == .ended { end() }
    }

    /// What the joiner does next, decided under the source's lock by ``run(initial:send:gate:isDisposed:giveToOwner:unlink:end:)``.
    @usableFromInline
    enum Step {
        /// It fell behind: offer the backlog to the owner.
        case behind
        /// Deliver this batch, then look again.
        case deliver([Event<Value, Failure>])
        /// The catch-up is unlinked (the owner calls the subscriber from now on); `rest` is dropped.
        case finished(rest: [Event<Value, Failure>])
    }

    /// Under the source's lock, after a run of deliveries ended with `outcome`: takes the next batch, or —
    /// when the run is over or nothing is left — unlinks the catch-up (`outcome` becomes `.ended` when the
    /// source went away after the backlog).
    @inlinable
    func takeBacklogLocked(_ outcome: inout Outcome, unlink: () -> Void) -> Step {
        if outcome != .caughtUp || backlog.isEmpty {
            if outcome == .caughtUp && endsAfterBacklog { outcome = .ended }
            let rest = backlog
            backlog = []
            unlink()
            return .finished(rest: rest)
        }
        let batch = backlog
        backlog = []
        handedOver.store(0)
        return .deliver(batch)
    }

    /// How a run of ``deliver(_:send:isDisposed:)`` ended.
    @usableFromInline
    enum Outcome: Equatable {
        /// Every event was delivered; more may come.
        case caughtUp
        /// A terminal event was delivered (or the source went away).
        case ended
        /// The subscription was found disposed: nothing more is delivered.
        case disposed
        /// ``backlogLimit`` events were handed over meanwhile; these were not delivered yet.
        case behind([Event<Value, Failure>])

        @inlinable
        static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.caughtUp, .caughtUp), (.ended, .ended), (.disposed, .disposed), (.behind, .behind): true
            default: false
            }
        }
    }

    /// Delivers `events` in order, unless the subscription turns out disposed or the joiner falls behind.
    @inlinable
    func deliver(
        _ events: some Collection<Event<Value, Failure>>, send: (Event<Value, Failure>) -> Void,
        isDisposed: () -> Bool
    ) -> Outcome {
        var index = events.startIndex
        while index != events.endIndex {
            if isDisposed() {
                fence.acknowledgeDisposal(wakingAt: address)
                return .disposed
            }
            if handedOver.value >= Self.backlogLimit {
                return .behind(Array(events[index...]))
            }
            let event = events[index]
            send(event)
            if event.isTerminal { return .ended }
            events.formIndex(after: &index)
        }
        return .caughtUp
    }

    /// Called by a disposer that found this catch-up linked, after marking the subscription disposed:
    /// returns once no callback of the joiner's is in flight on another thread.
    @inlinable
    func waitForJoiner() {
        fence.waitForCaller(parkingAt: address)
    }
}
