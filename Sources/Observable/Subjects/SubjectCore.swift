import TetherEngine

/// The shared machinery of ``Subject``, ``ReplaySubject`` and ``BehaviorSubject``.
///
/// Every operation — a send, a new subscriber, a removal — goes through one ``SerialGate``, so the
/// subscriber list and the replay buffer are only ever touched by the gate's owner and no lock is
/// held while observers run. A send delivers to the subscribers in place (reentrant operations are queued, so
/// the list can't change during a delivery); per subscriber it costs
/// publishing the subscriber in the gate's `current` (one atomic exchange), a load of its disposed flag
/// and the call — which is what lets `dispose()` wait for that subscriber's callback alone.
///
/// **Joins (plain subjects).** A new subscriber of a ``Subject`` never goes through the gate: under the
/// gate's lock it joins the engine's ``JoinQueue`` (`joinQueue`), whose count (mirrored in `joins`) every send
/// is stamped with (``StampedEvent``'s `seen`). The owner takes the queue into `joined` before delivering a
/// value stamped later than what it has taken in, and calls an entry only when the entry joined before the
/// value was sent — the join order's rules and their exploration are the engine's (`JoinOrder.swift`). So
/// `subscribe` neither delivers anything nor waits for the owner — not even for room in the backlog — and a
/// subscriber receives every value sent after its `subscribe` returned and none whose send returned before it
/// started. A subscription disposed before the owner took it in is taken out of the queue under the lock,
/// without the disposal fence (it was never called). The terminal event and the shutdown take the queue in
/// and close it in one critical section; later subscribers join through the gate.
///
/// **Subjects that replay** (``ReplaySubject``, ``BehaviorSubject``) are *ordered*: every operation is
/// submitted in lock order, and a sent value is recorded in `buffer` (and becomes `latest`) under the lock at
/// that moment — so `value` reads the latest value sent, even while the send is still queued behind a
/// delivery in progress, and the replay a new subscriber needs can be read under the lock. Their
/// subscribers join in place too, stamped the same way, and catch up on their own thread
/// (``JoinCatchUp``): under the lock the joiner reads the replay and takes its place in the join queue (or, after
/// the terminal event or the shutdown was submitted, reads that too and takes no place), then calls its own
/// subscriber; the owner hands what it would deliver to a subscriber still catching up to its backlog.
@usableFromInline
final class SubjectCore<Value, Failure: Error>: SerialGate<SubjectOp<Value, Failure>>, @unchecked Sendable {
    // Safety: `joined` and `terminal` are touched only by the gate's owner; `buffer`, `joinQueue`,
    // `catchingUp` and the submitted end are guarded by the gate's lock.
    // The core *is* the gate (a subclass, not a member): one object and one retain less per send.
    @usableFromInline typealias Op = SubjectOp<Value, Failure>

    /// The subscribers the owner delivers to, with their join order (the engine's ``JoinedSubscribers``; an
    /// entry that joined through the gate, in order with the events, has join 0). Touched only by the gate's
    /// owner.
    @usableFromInline @exclusivity(unchecked) var joined = JoinedSubscribers<SubjectEntry<Value, Failure>>()
    /// Subscribers that joined in place and that the owner has not taken in yet (the engine's ``JoinQueue``;
    /// closed when the owner performed the terminal event or the shutdown: later subscribers join through
    /// the gate). Guarded by the gate's lock.
    @usableFromInline @exclusivity(unchecked) var joinQueue = JoinQueue<SubjectEntry<Value, Failure>>()
    /// `joinQueue.count`, stored (releasing) under the gate's lock at each join: a send is stamped with it without
    /// the lock.
    @usableFromInline let joins = PublishedJoinIndex()
    /// Values replayed to new subscribers; bounded by `capacity` (0: none).
    @usableFromInline @exclusivity(unchecked) var buffer: [Value] = []
    @usableFromInline @exclusivity(unchecked) var bufferStart = 0
    @usableFromInline let capacity: Int
    @usableFromInline @exclusivity(unchecked) var terminal: Event<Value, Failure>?
    @usableFromInline let terminated = AtomicFlag()
    /// The subscriptions this subject is the subscriber of (RAC's `didSubscribeWithDisposable:`): disposed
    /// when the subject terminates or goes away. Made on the first one. Guarded by the gate's lock.
    @usableFromInline @exclusivity(unchecked) var subscriptions: CompositeDisposable?
    /// Set (under the gate's lock) once the subject terminated or went away: later subscriptions end at once.
    @usableFromInline @exclusivity(unchecked) var subscriptionsClosed = false
    /// An ordered core's terminal event, set under the gate's lock when it is submitted: later sends submit nothing,
    /// later subscribers receive the replay and this event.
    @usableFromInline @exclusivity(unchecked) var submittedTerminal: Event<Value, Failure>?
    /// Set under the gate's lock when an ordered core's shutdown is submitted: later subscribers receive the replay
    /// and end.
    @usableFromInline @exclusivity(unchecked) var shutdownSubmitted = false
    /// An ordered core's subscribers that are catching up (see ``JoinCatchUp``), by entry. Guarded by
    /// `lock`. Kept beside the entries rather than in them: an entry stays in malloc's 64-byte class.
    @usableFromInline @exclusivity(unchecked) var catchingUp = CatchingUpSubscribers<Value, Failure>()
    /// `catchingUp.count`, changed under the gate's lock: while it is 0 the owner calls every entry without looking.
    /// Decremented (releasing) after the joiner's last callback; the owner loads it acquiring, so a call it
    /// makes after reading 0 comes after that callback.
    @usableFromInline let catchUps = CatchUpCount()

    /// Takes a subscription this subject is the subscriber of (see ``subscriptions``).
    @usableFromInline
    func collect(_ subscription: CompositeDisposable) {
        let collection = withLock { () -> CompositeDisposable? in
            if subscriptionsClosed { return nil }
            if let subscriptions { return subscriptions }
            let collection = CompositeDisposable()
            subscriptions = collection
            return collection
        }
        guard let collection else {
            subscription.dispose()
            return
        }
        collection.add(subscription)
    }

    /// Ends every subscription this subject is the subscriber of, and any made later.
    @usableFromInline
    func disposeSubscriptions() {
        let collection = withLock {
            subscriptionsClosed = true
            defer { subscriptions = nil }
            return subscriptions
        }
        collection?.dispose()
    }
    /// Whether the core is an ordered gate (a subject that replays): every operation goes through the
    /// gate's in-order methods (``SerialGate/submitEventInOrder(_:perform:)`` and its family), keeping
    /// ``latest`` and `buffer` in step with the order of delivery.
    @usableFromInline let isOrdered: Bool
    /// A plain subject (no replay, not ordered): subscribers join through the join queue without a catch-up.
    @usableFromInline let joinsInPlace: Bool
    /// The latest value sent, for an ordered core. Guarded by the gate's lock.
    @usableFromInline @exclusivity(unchecked) var latest: Value?

    @inlinable
    init(capacity: Int, initial: [Value] = [], ordered: Bool = false) {
        self.capacity = capacity
        self.buffer = initial
        self.isOrdered = ordered || capacity > 0
        self.joinsInPlace = capacity == 0 && !ordered
        self.latest = initial.last
        super.init()
    }

    /// Called under the lock as `op` takes its place in an ordered core: a value becomes `latest` and is
    /// recorded for replay, and an event is stamped with the joins it comes after; returns `nil` (submit
    /// nothing) for an event after the terminal one.
    @inlinable
    func noteOrdered(_ op: Op) -> Op? {
        switch op {
        case .event(let stamped):
            let event = stamped.event
            if submittedTerminal != nil { return nil }
            switch event {
            case .next(let value):
                latest = value
                if capacity > 0 { record(value) }
            case .error, .completed:
                submittedTerminal = event
            }
            return .event(StampedEvent(event, seen: joins.latest))
        case .shutdown:
            shutdownSubmitted = true
            return op
        case .add, .remove, .flush:
            return op
        }
    }

    /// The latest value sent (an ordered core only).
    @inlinable
    var latestValue: Value {
        withLock { latest! }
    }

    /// Set by `shutdown()`: the public subject is gone, so nothing can be sent any more.
    @usableFromInline @exclusivity(unchecked) var isShutDown = false

    /// Called when the public subject deinitializes: nobody can send any more, so the remaining
    /// subscriptions end quietly and free their closures (entries hold the core strongly — a weak
    /// back-reference would give the core a side table and slow every retain on the send path).
    @inlinable
    func shutdown() {
        terminated.raise()
        disposeSubscriptions()
        // Never parks: the public subject's `deinit` may run anywhere (after the events queued before it).
        let core = Unmanaged.passUnretained(self)
        if isOrdered {
            submitInOrderWithoutWaiting {
                core._withUnsafeGuaranteedRef { $0.noteOrdered(.shutdown) }
            } perform: { op in
                core._withUnsafeGuaranteedRef { $0.perform(op) }
            }
        } else {
            submitWithoutWaiting(.shutdown) { op in core._withUnsafeGuaranteedRef { $0.perform(op) } }
        }
    }

    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if terminated.isSet { return }
        // The joins this send comes after (see "Joins" in the type's notes): a relaxed load suffices, since
        // a `subscribe` that returned before this send started incremented it first.
        let seen = joins.latest
        if !isOrdered {
            // An idle plain subject delivers the event in place, as `perform` would deliver it: it is not
            // copied into an operation (for a value that is a reference, or holds one, a retain and a release).
            let core = Unmanaged.passUnretained(self)
            let delivered = runIfIdle {
                deliver(event, seen: seen)
            } perform: { op in
                core._withUnsafeGuaranteedRef { $0.perform(op) }
            }
            if delivered { return }
        }
        enqueueEvent(.event(StampedEvent(event, seen: seen)))
    }

    /// Submits event `op` the way this core's events go (see ``isOrdered``).
    @inlinable
    func enqueueEvent(_ op: Op) {
        // Unretained in the closures: capturing `self` would make every send retain and release the core.
        let core = Unmanaged.passUnretained(self)
        if isOrdered {
            submitEventInOrder {
                core._withUnsafeGuaranteedRef { $0.noteOrdered(op) }
            } perform: { op in
                core._withUnsafeGuaranteedRef { $0.perform(op) }
            }
        } else {
            submitEvent(op) { op in core._withUnsafeGuaranteedRef { $0.perform(op) } }
        }
    }

    @inlinable
    var signal: Signal<Value, Failure> {
        let start = { (sink: Sink<Value, Failure>, lifetime: CompositeDisposable) in
            let entry = SubjectEntry(core: self, sink: sink, lifetime: lifetime)
            // A closure made here, in the subscriber's (specialized) code, so that disposing runs
            // specialized code too. It captures the entry alone, so the entry is its context: no
            // allocation of its own.
            lifetime.addUnchecked { entry.remove() }
            if self.isOrdered {
                self.joinReplaying(entry)
            } else {
                // The entry's last use here: its reference moves into the join queue.
                self.joinPlain(entry)
            }
        }
        // A plain subject names its core in its signal, for `map` (see `SignalAnnex`).
        if joinsInPlace { return Signal(plainSubject: self, function: "signal", unsafeStart: start) }
        return Signal(unsafeStart: start)
    }

    /// `map`'s values-only subscription right below this plain subject, as the subject's start would make it
    /// with the stage's sink (`{ next(transform($0)) }`), with one entry holding both closures instead (see
    /// ``SubjectMappingEntry``): the same join, removal and calls.
    @inlinable
    func joinMapping<NewValue>(
        next: @escaping (NewValue) -> Void, transform: @escaping (Value) -> NewValue, lifetime: CompositeDisposable
    ) {
        let entry: SubjectEntry<Value, Failure> = SubjectMappingEntry(
            core: self, next: next, transform: transform, lifetime: lifetime)
        lifetime.addUnchecked { entry.remove() }
        joinPlain(entry)
    }

    /// The `signal` of the subject this core serves: ``signal``, and while the live graph is on a stage
    /// that records the subject's deliveries (built out of line, so that the closures of the usual path
    /// never escape; otherwise ``signal`` has no debug info: a getter makes a source, described only for
    /// the graph).
    @inlinable
    var subjectSignal: Signal<Value, Failure> {
        if _slowPath(DebugSwitch.isGraphOn) { return Signal.tracked(sentBy: self) { self.signal } }
        return signal
    }

    @inlinable
    func removeEntry(_ entry: SubjectEntry<Value, Failure>) {
        joined.remove(entry)
    }

    /// Removes `entry` (its subscription was disposed); returns after a callback to it running on
    /// another thread has returned — and waits for nothing else.
    @inlinable
    func remove(_ entry: SubjectEntry<Value, Failure>) {
        // Not taken in by the owner yet: it was never called, and never will be (the owner takes entries
        // in under the lock); no callback to wait for. A plain subject's entry still in the join queue is
        // taken out and marked under the lock, where nobody else can reach it (no exchange on its flag:
        // this closure of its lifetime runs once, and the owner ends only entries it took in).
        if joinsInPlace && removePending(entry) { return }
        if entry.flags.markDisposed() { return }
        if !joinsInPlace && removeJoining(entry) { return }
        waitForCallback(entry.id, flags: entry.flags)
        removeThroughGate(entry)
    }

    /// Takes `entry` out of `joined`; out of line for the reason given at ``joinThroughGate(_:)``.
    @usableFromInline
    func removeThroughGate(_ entry: SubjectEntry<Value, Failure>) {
        // In place under the lock when the subject is idle (see
        // ``SerialGate/submitBookkeeping(_:inPlace:perform:)``), so the disposer never delivers what other
        // threads send meanwhile; otherwise left to the owner, before the queued events (in order with
        // them for an ordered core). The caller (the subscription's lifetime) still holds `entry`: removing
        // it releases no user code.
        if isOrdered {
            submitBookkeepingInOrder(.remove(entry)) {
                self.removeInPlace($0)
            } perform: {
                self.perform($0)
            }
        } else {
            submitBookkeeping(.remove(entry)) {
                self.removeInPlace($0)
            } perform: {
                self.perform($0)
            }
        }
    }

    /// Does a removal in place (under the lock, the gate idle); `false` for any other operation.
    @inlinable
    func removeInPlace(_ op: Op) -> Bool {
        guard case .remove(let entry) = op else { return false }
        removeEntry(entry)
        return true
    }

    /// Calls `entry` with `event` unless it was disposed (see ``SerialGate/callUnlessDisposed(_:_:_:)``).
    @inlinable
    func call(_ entry: SubjectEntry<Value, Failure>, _ event: Event<Value, Failure>) {
        // The entry's address, taken once: a stage's callback is given it (see ``SubjectEntry/send(_:at:)``).
        let id = entry.id
        callUnlessDisposed(id, entry.flags) { entry.send(event, at: id) }
    }

    /// Calls `entry` with `.next(value)` unless it was disposed, as `call(_:_:)` does; a values-only sink
    /// then takes `value` without an event being matched again. Always inlined: with an entry's three kinds of
    /// callback the optimizer stopped inlining the gate's call closure here, and each value paid a call more
    /// (W1's loop +3 %, callgrind).
    @inlinable @inline(__always)
    func callNext(_ entry: SubjectEntry<Value, Failure>, _ value: Value) {
        let id = entry.id
        callUnlessDisposed(id, entry.flags) { entry.send(next: value, at: id) }
    }

    /// ``callNext(_:_:)`` for a subject's one subscriber. Out of line, where the fan-out loop inlines
    /// `callNext`: inlined into ``deliver(_:seen:)`` twice, the closure that borrows the one entry was not
    /// inlined there, and cost a call that keeps the error register (W1/W4, 7 instructions per value more,
    /// callgrind); W2's loop pays a call per subscriber if `callNext` is out of line.
    @inlinable @inline(never)
    func callSoleNext(_ entry: SubjectEntry<Value, Failure>, _ value: Value) {
        callNext(entry, value)
    }

    @inlinable
    func perform(_ op: Op) {
        switch op {
        case .event(let stamped):
            deliver(stamped.event, seen: stamped.seen)
        case .add(let entry):
            add(entry)
        case .remove(let entry):
            removeEntry(entry)
        case .flush(let entry):
            flush(entry)
        case .shutdown:
            if terminal != nil { return }
            isShutDown = true
            takeJoins(closing: true)
            for entry in joined.removeAll() where !handOverEnd(to: entry) { entry.finish() }
        }
    }

    @inlinable
    func deliver(_ event: Event<Value, Failure>, seen: UInt) {
        if terminal != nil { return }
        // The tag, not a `switch`: switching over the event copied it (a retain and a release of a value that
        // is a reference, or holds one), although this path only passes it on.
        if !event.isTerminal {
            // (A subject that replays recorded the value when it was sent: see ``noteOrdered(_:)``.)
            // Subscribers that joined before this value was sent and are not taken in yet (a plain
            // subject): take them in. At most once per batch: every value in a batch was stamped before
            // the owner took the batch, so before it takes the joins.
            if joined.needsTakingIn(seen) { takeJoins() }
            if _fastPath(joined.allJoined(before: seen) && catchUps.isZero) {
                // Every subscriber joined before this value was sent. One subscriber (the common case) is
                // borrowed unretained: `perform` never nests (reentrant operations are queued), so `entries`
                // holds it for the call (retaining it or the array would be two atomic operations per send).
                // Several are called from a snapshot, one retain of the array for all of them.
                if _isPOD(Value.self), case .next(let value) = event {
                    // (Decided at compile time.) A trivial value goes to a values-only sink as it is; an
                    // event sink gets a new event, a free copy.
                    if joined.entries.count == 1 {
                        Unmanaged.passUnretained(joined.entries[0])._withUnsafeGuaranteedRef { callSoleNext($0, value) }
                    } else {
                        let entries = joined.entries
                        for index in entries.indices {
                            Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { callNext($0, value) }
                        }
                    }
                } else if joined.entries.count == 1 {
                    // The event as it is: the value is not taken out of it (for a value that is a reference, or
                    // holds one, a retain and a release), and a new event would retain it once more.
                    Unmanaged.passUnretained(joined.entries[0])._withUnsafeGuaranteedRef { call($0, event) }
                } else {
                    let entries = joined.entries
                    for index in entries.indices {
                        Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { call($0, event) }
                    }
                }
            } else {
                deliverToEarlierJoins(event, seen: seen)
            }
            exitCallback()
        } else {
            // Everyone who joined receives the terminal event, even after it was sent; later subscribers
            // join through the gate and receive it there.
            takeJoins(closing: true)
            terminal = event
            terminated.raise()
            // A terminated subscriber disposes every subscription made with it (RAC 2.5).
            disposeSubscriptions()
            var snapshot = joined.removeAll()
            // A subscriber catching up receives the event from its backlog and ends its subscription itself.
            if !catchUps.isZero { snapshot.removeAll { handOver(event, to: $0) } }
            for entry in snapshot { call(entry, event) }
            exitCallback()
            for entry in snapshot { entry.finish() }
        }
    }

    /// ``deliver(_:seen:)``'s value when some subscribers joined after it was sent — they do not receive it —
    /// or some are catching up — it goes to their backlog. Out of line: the common case makes no copy of the
    /// event for what this path does with it.
    @inlinable @inline(never)
    func deliverToEarlierJoins(_ event: Event<Value, Failure>, seen: UInt) {
        let snapshot = joined
        for index in snapshot.entries.indices where snapshot.receives(at: index, stamped: seen) {
            let entry = snapshot.entries[index]
            if !handOver(event, to: entry) { call(entry, event) }
        }
    }

    @inlinable
    func record(_ value: Value) {
        buffer.append(value)
        if buffer.count - bufferStart > capacity {
            bufferStart += 1
            if bufferStart > 32 && bufferStart * 2 > buffer.count {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
        }
    }

    /// A plain subject's subscriber that came after the terminal event or the shutdown (see
    /// ``joinThroughGate(_:)``).
    @inlinable
    func add(_ entry: SubjectEntry<Value, Failure>) {
        if entry.flags.isDisposedRelaxed { return }
        if let terminal {
            call(entry, terminal)
            exitCallback()
            entry.finish()
            return
        }
        if entry.flags.isDisposedRelaxed { return }
        if isShutDown {
            // The subject is gone and nothing more can come: end quietly.
            entry.finish()
            return
        }
        joined.appendInOrder(entry)
    }
}

/// An operation on a subject, performed by its gate's owner.
@usableFromInline
enum SubjectOp<Value, Failure: Error> {
    /// An event, and the subject's `joins` when it was sent (see "Joins" in ``SubjectCore``'s notes).
    case event(StampedEvent<Value, Failure>)
    case add(SubjectEntry<Value, Failure>)
    case remove(SubjectEntry<Value, Failure>)
    /// A subscriber that fell behind while catching up: the owner delivers its backlog (see
    /// ``JoinCatchUp``).
    case flush(SubjectEntry<Value, Failure>)
    case shutdown
}

/// An event sent to a subject, and the subject's `joins` when it was sent (see "Joins" in ``SubjectCore``'s
/// notes): ``SubjectOp/event(_:)``'s one payload. One value rather than two payloads: a send builds it once,
/// and the owner takes it out of the operation as one value (fewer copies and moves per send).
@usableFromInline
struct StampedEvent<Value, Failure: Error> {
    @usableFromInline let event: Event<Value, Failure>
    /// The subject's `joins` when the event was sent.
    @usableFromInline let seen: UInt

    @inlinable
    init(_ event: Event<Value, Failure>, seen: UInt) {
        self.event = event
        self.seen = seen
    }
}

extension SubjectOp: CustomStringConvertible {
    /// An event reads as the event alone (the debugging tools quote it): `event(next(2))`.
    @usableFromInline
    var description: String {
        switch self {
        case .event(let stamped): "event(\(stamped.event))"
        case .add: "add"
        case .remove: "remove"
        case .flush: "flush"
        case .shutdown: "shutdown"
        }
    }
}

/// ``Subject``, ``ReplaySubject`` and ``BehaviorSubject``: a public face over one ``SubjectCore``, whose
/// conformances to the internal protocols are the core's.
@usableFromInline
protocol SubjectFront: SignalConvertible, SubscriptionCollecting {
    var core: SubjectCore<Value, Failure> { get }
}

extension SubjectFront {
    /// A subscription made with the subject as its subscriber lives until the subject terminates or goes
    /// away (or until its own terminal event or disposal).
    @usableFromInline
    func collect(_ subscription: CompositeDisposable) {
        core.collect(subscription)
    }
}
