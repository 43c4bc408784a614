import Synchronization

/// The shared machinery of ``Subject``, ``ReplaySubject`` and ``BehaviorSubject``.
///
/// Every operation — a send, a new subscriber, a removal — goes through one ``SerialGate``, so the
/// subscriber list and the replay buffer are only ever touched by the gate's owner and no lock is
/// held while observers run. A send delivers to a snapshot of the subscribers; per subscriber it costs
/// publishing the subscriber in the gate's `current` (one atomic exchange), a load of its disposed flag
/// and the call — which is what lets `dispose()` wait for that subscriber's callback alone.
///
/// A ``BehaviorSubject`` core is *ordered*: every operation is submitted in lock order and a sent value
/// becomes `latest` at that moment, so `value` reads the latest value sent, even while the send is still
/// queued behind a delivery in progress.
@usableFromInline
final class SubjectCore<Value, Failure: Error>: SerialGate<SubjectOp<Value, Failure>>, @unchecked Sendable {
    // Safety: `entries`, `buffer` and `terminal` are touched only by the gate's owner.
    // The core *is* the gate (a subclass, not a member): one object and one retain less per send.
    @usableFromInline typealias Op = SubjectOp<Value, Failure>

    @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<SubjectEntry<Value, Failure>> = []
    /// Values replayed to new subscribers; bounded by `capacity` (0: none).
    @usableFromInline @exclusivity(unchecked) var buffer: [Value] = []
    @usableFromInline @exclusivity(unchecked) var bufferStart = 0
    @usableFromInline let capacity: Int
    @usableFromInline @exclusivity(unchecked) var terminal: Event<Value, Failure>?
    @usableFromInline let terminated = Atomic<Bool>(false)
    /// The subscriptions this subject is the subscriber of (RAC's `didSubscribeWithDisposable:`): disposed
    /// when the subject terminates or goes away. Made on the first one. Guarded by the gate's `lock`.
    @usableFromInline @exclusivity(unchecked) var subscriptions: CompositeDisposable?
    /// Set (under `lock`) once the subject terminated or went away: later subscriptions end at once.
    @usableFromInline @exclusivity(unchecked) var subscriptionsClosed = false

    /// Takes a subscription this subject is the subscriber of (see ``subscriptions``).
    @usableFromInline
    func collect(_ subscription: CompositeDisposable) {
        lock.lock()
        if subscriptionsClosed {
            lock.unlock()
            subscription.dispose()
            return
        }
        let collection: CompositeDisposable
        if let subscriptions {
            collection = subscriptions
        } else {
            collection = CompositeDisposable()
            subscriptions = collection
        }
        lock.unlock()
        collection.add(subscription)
    }

    /// Ends every subscription this subject is the subscriber of, and any made later.
    @usableFromInline
    func disposeSubscriptions() {
        lock.lock()
        subscriptionsClosed = true
        let collection = subscriptions
        subscriptions = nil
        lock.unlock()
        collection?.dispose()
    }
    /// Whether every operation goes through ``SerialGate/submitInOrder(_:bounded:whileLocked:perform:)``
    /// (``BehaviorSubject``), keeping ``latest`` in step with the order of delivery.
    @usableFromInline let isOrdered: Bool
    /// The latest value sent, for an ordered core. Guarded by the gate's `lock`.
    @usableFromInline @exclusivity(unchecked) var latest: Value?

    @inlinable
    init(capacity: Int, initial: [Value] = [], ordered: Bool = false) {
        self.capacity = capacity
        self.buffer = initial
        self.isOrdered = ordered
        self.latest = initial.last
        super.init()
    }

    /// Submits `op` the way this core's operations go (see ``isOrdered``); `bounded` for events and new
    /// subscribers (they wait while the backlog is full), not for bookkeeping.
    @inlinable
    func enqueue(_ op: Op, bounded: Bool = false, handOff: Bool = false) {
        // Unretained in the closures: capturing `self` made every send retain and release the core.
        let core = Unmanaged.passUnretained(self)
        if isOrdered {
            submitInOrder(bounded: bounded, handOff: handOff) {
                core._withUnsafeGuaranteedRef { $0.noteOrdered(op) }
            } perform: { op in
                core._withUnsafeGuaranteedRef { $0.perform(op) }
            }
        } else {
            submit(op, bounded: bounded, handOff: handOff) { op in core._withUnsafeGuaranteedRef { $0.perform(op) } }
        }
    }

    /// Called under the lock as `op` takes its place in an ordered core: a value becomes `latest`.
    @inlinable
    func noteOrdered(_ op: Op) -> Op {
        if case .event(.next(let value)) = op { latest = value }
        return op
    }

    /// The latest value sent (an ordered core only).
    @inlinable
    var latestValue: Value {
        lock.lock()
        let value = latest!
        lock.unlock()
        return value
    }

    /// Set by `shutdown()`: the public subject is gone, so nothing can be sent any more.
    @usableFromInline @exclusivity(unchecked) var isShutDown = false

    /// Called when the public subject deinitializes: nobody can send any more, so the remaining
    /// subscriptions end quietly and free their closures (entries hold the core strongly — a weak
    /// back-reference would give the core a side table and slow every retain on the send path).
    @inlinable
    func shutdown() {
        terminated.store(true, ordering: .releasing)
        disposeSubscriptions()
        enqueue(.shutdown)
    }

    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if terminated.load(ordering: .relaxed) { return }
        enqueue(.event(event), bounded: true)
    }

    @inlinable
    var signal: Signal<Value, Failure> {
        Signal(unsafeStart: { sink, lifetime in
            let entry = SubjectEntry(core: self, sink: sink, lifetime: lifetime)
            // A closure made here, in the subscriber's (specialized) code, so that disposing runs
            // specialized code too. It captures the entry alone, so the entry is its context: no
            // allocation of its own.
            lifetime.add { entry.remove() }
            // A new subscriber takes an idle subject like a send (and then delivers what other threads
            // queued meanwhile): threads that subscribe and dispose in a loop must share the delivering, or
            // the senders, left to deliver alone, could never return (see ThreadingAndLifetimes).
            self.enqueue(.add(entry), bounded: true, handOff: true)
        })
    }

    @inlinable
    func removeEntry(_ entry: SubjectEntry<Value, Failure>) {
        if let index = entries.lastIndex(where: { $0 === entry }) {
            entries.remove(at: index)
        }
    }

    /// Removes `entry` (its subscription was disposed); returns after a callback to it running on
    /// another thread has returned — and waits for nothing else.
    @inlinable
    func remove(_ entry: SubjectEntry<Value, Failure>) {
        if entry.disposed.exchange(true, ordering: .sequentiallyConsistent) { return }
        waitForCallback(entry.id, skipped: entry.skipped)
        // In place under the lock when the subject is idle (see
        // ``SerialGate/submitBookkeeping(_:urgent:ordered:inPlace:perform:)``), so the disposer never
        // delivers what other threads send meanwhile; urgent (before the queued events) otherwise. The
        // caller (the subscription's lifetime) still holds `entry`: removing it releases no user code.
        submitBookkeeping(.remove(entry), urgent: !isOrdered, ordered: isOrdered) {
            guard case .remove(let entry) = $0 else { return false }
            self.removeEntry(entry)
            return true
        } perform: {
            self.perform($0)
        }
    }

    /// Calls `entry` with `event` unless it was disposed (see ``SerialGate/enterCallback(_:)``).
    @inlinable
    func call(_ entry: SubjectEntry<Value, Failure>, _ event: Event<Value, Failure>) {
        enterCallback(entry.id)
        if entry.disposed.load(ordering: .sequentiallyConsistent) {
            if !entry.skipped.load(ordering: .relaxed) { entry.skipped.store(true, ordering: .releasing) }
        } else {
            entry.sink.send(event)
        }
    }

    /// Calls `entry` with `.next(value)` unless it was disposed, as `call(_:_:)` does; a values-only sink
    /// then takes `value` without an event being matched again.
    @inlinable
    func callNext(_ entry: SubjectEntry<Value, Failure>, _ value: Value) {
        enterCallback(entry.id)
        if entry.disposed.load(ordering: .sequentiallyConsistent) {
            if !entry.skipped.load(ordering: .relaxed) { entry.skipped.store(true, ordering: .releasing) }
        } else {
            entry.sink.send(next: value)
        }
    }

    @inlinable
    func perform(_ op: Op) {
        switch op {
        case .event(let event):
            deliver(event)
        case .add(let entry):
            add(entry)
        case .remove(let entry):
            removeEntry(entry)
        case .shutdown:
            if terminal != nil { return }
            isShutDown = true
            let snapshot = entries
            entries = []
            for entry in snapshot { entry.finish() }
        }
    }

    @inlinable
    func deliver(_ event: Event<Value, Failure>) {
        if terminal != nil { return }
        switch event {
        case .next(let value):
            if capacity > 0 { record(value) }
            let snapshot = entries
            if _isPOD(Value.self) {
                // (Decided at compile time.) A trivial value goes to a values-only sink as it is; an event
                // sink gets a new event, a free copy.
                for entry in snapshot { callNext(entry, value) }
            } else {
                // A new event would retain the value once more per subscriber: the event as it is.
                for entry in snapshot { call(entry, event) }
            }
            exitCallback()
        case .error, .completed:
            terminal = event
            terminated.store(true, ordering: .releasing)
            // A terminated subscriber disposes every subscription made with it (RAC 2.5).
            disposeSubscriptions()
            let snapshot = entries
            entries = []
            for entry in snapshot { call(entry, event) }
            exitCallback()
            for entry in snapshot { entry.finish() }
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

    @inlinable
    func add(_ entry: SubjectEntry<Value, Failure>) {
        if entry.disposed.load(ordering: .relaxed) { return }
        if capacity > 0 {
            // Replay; values sent meanwhile (even by these callbacks) queue behind this operation.
            var index = bufferStart
            let end = buffer.count
            while index < end {
                call(entry, .next(buffer[index]))
                index += 1
            }
            exitCallback()
        }
        if let terminal {
            call(entry, terminal)
            exitCallback()
            entry.finish()
            return
        }
        if entry.disposed.load(ordering: .relaxed) { return }
        if isShutDown {
            // The subject is gone and nothing more can come: end quietly after the replay.
            entry.finish()
            return
        }
        entries.append(entry)
    }
}

/// An operation on a subject, performed by its gate's owner.
@usableFromInline
enum SubjectOp<Value, Failure: Error> {
    case event(Event<Value, Failure>)
    case add(SubjectEntry<Value, Failure>)
    case remove(SubjectEntry<Value, Failure>)
    case shutdown
}

/// One subscriber of a subject; its subscription's lifetime holds a closure that removes it.
@usableFromInline
final class SubjectEntry<Value, Failure: Error>: @unchecked Sendable {
    /// The subject's core, for ``remove()`` (the entry is the context of the closure that calls it).
    @usableFromInline let core: SubjectCore<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable
    /// After the references: a ``Sink`` is 17 bytes, and the two flags follow it in its last word (51 B,
    /// malloc's 64-byte class; in the order core, sink, lifetime it is 58 B, the 80-byte class).
    @usableFromInline let sink: Sink<Value, Failure>
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// Set by the gate's owner when it found this entry disposed and skipped it: it never calls it again.
    @usableFromInline let skipped = Atomic<Bool>(false)
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)

    /// This entry's identity in the gate's `current`.
    @inlinable
    var id: UInt { parkingAddress(of: self) }

    @inlinable
    init(core: SubjectCore<Value, Failure>, sink: Sink<Value, Failure>, lifetime: CompositeDisposable) {
        self.core = core
        self.sink = sink
        self.lifetime = lifetime
    }

    /// Removes this entry from the subject (its subscription was disposed); see ``SubjectCore/remove(_:)``.
    @inlinable
    func remove() {
        core.remove(self)
    }

    /// Called by the owner after the terminal event: ends the whole subscription.
    @inlinable
    func finish() {
        disposed.store(true, ordering: .sequentiallyConsistent)
        lifetime.dispose()
    }
}
