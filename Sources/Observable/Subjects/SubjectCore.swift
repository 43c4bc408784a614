import Synchronization

/// The shared machinery of ``Subject``, ``ReplaySubject`` and ``BehaviorSubject``.
///
/// Every operation — a send, a new subscriber, a removal — goes through one ``SerialGate``, so the
/// subscriber list and the replay buffer are only ever touched by the gate's owner and no lock is
/// held while observers run. A send delivers to a snapshot of the subscribers; per subscriber it costs
/// one relaxed atomic load (the disposed flag) and the call.
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
    /// Called (by the owner) after a value entered the buffer; `BehaviorSubject` mirrors it.
    @usableFromInline let onValue: (@Sendable (Value) -> Void)?

    @inlinable
    init(capacity: Int, initial: [Value] = [], onValue: (@Sendable (Value) -> Void)? = nil) {
        self.capacity = capacity
        self.buffer = initial
        self.onValue = onValue
        super.init()
    }

    /// Set by `shutdown()`: the public subject is gone, so nothing can be sent any more.
    @usableFromInline @exclusivity(unchecked) var isShutDown = false

    /// Called when the public subject deinitializes: nobody can send any more, so the remaining
    /// subscriptions end quietly and free their closures (entries hold the core strongly — a weak
    /// back-reference would give the core a side table and slow every retain on the send path).
    @inlinable
    func shutdown() {
        terminated.store(true, ordering: .releasing)
        submit(.shutdown) { self.perform($0) }
    }

    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if terminated.load(ordering: .relaxed) { return }
        submit(.event(event)) { self.perform($0) }
    }

    @inlinable
    var signal: Signal<Value, Failure> {
        Signal(unsafeStart: { sink, lifetime in
            let entry = SubjectEntry(sink: sink, lifetime: lifetime)
            // A closure made here, in the subscriber's (specialized) code, so that disposing runs
            // specialized code too.
            lifetime.add { self.remove(entry) }
            self.submit(.add(entry)) { self.perform($0) }
        })
    }

    /// Removes `entry` (its subscription was disposed); returns after a delivery to it running on
    /// another thread has returned.
    @inlinable
    func remove(_ entry: SubjectEntry<Value, Failure>) {
        if entry.disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        submit(.remove(entry)) { self.perform($0) }
        waitForOwner()
    }

    @inlinable
    func perform(_ op: Op) {
        switch op {
        case .event(let event):
            deliver(event)
        case .add(let entry):
            add(entry)
        case .remove(let entry):
            if let index = entries.lastIndex(where: { $0 === entry }) {
                entries.remove(at: index)
            }
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
            for entry in snapshot where !entry.disposed.load(ordering: .relaxed) {
                entry.sink.send(event)
            }
        case .error, .completed:
            terminal = event
            terminated.store(true, ordering: .releasing)
            let snapshot = entries
            entries = []
            for entry in snapshot where !entry.disposed.load(ordering: .relaxed) {
                entry.sink.send(event)
            }
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
        onValue?(value)
    }

    @inlinable
    func add(_ entry: SubjectEntry<Value, Failure>) {
        if entry.disposed.load(ordering: .relaxed) { return }
        if capacity > 0 {
            // Replay; values sent meanwhile (even by these callbacks) queue behind this operation.
            var index = bufferStart
            let end = buffer.count
            while index < end {
                if entry.disposed.load(ordering: .relaxed) { return }
                entry.sink.send(.next(buffer[index]))
                index += 1
            }
        }
        if let terminal {
            if !entry.disposed.load(ordering: .relaxed) { entry.sink.send(terminal) }
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
    @usableFromInline let sink: Sink<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable
    @usableFromInline let disposed = Atomic<Bool>(false)
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)

    @inlinable
    init(sink: Sink<Value, Failure>, lifetime: CompositeDisposable) {
        self.sink = sink
        self.lifetime = lifetime
    }

    /// Called by the owner after the terminal event: ends the whole subscription.
    @inlinable
    func finish() {
        disposed.store(true, ordering: .releasing)
        lifetime.dispose()
    }
}
