import Synchronization

/// The thread-safe state behind ``MutableProperty``: the value, the subscribers, and the ordered gate that
/// delivers changes in the order they were made.
///
/// The storage is an ordered gate: every operation — a set, a new subscriber, a removal, the end — goes
/// through it in lock order (``SerialGate/submitEventInOrder(_:perform:)`` and its family), and the value
/// changes under the gate's lock at the moment the set takes its place in that order. So:
///
/// - changes reach every subscriber in the order the sets happened, and the last value delivered is the
///   current value;
/// - a subscriber's initial value is read under the lock at its position in that order: it never
///   receives a set that happened before its initial value, and receives every set after it;
/// - a set from inside a subscriber (reentrancy) or from another thread while one is delivering is
///   queued and delivered by the delivering thread after the current operation (the setter returns at
///   once; the value itself is already stored);
/// - disposing from another thread waits only for a callback of that subscription in flight
///   (guarantee 2); nothing reaches the subscriber afterwards.
///
/// `modify` runs the caller's closure on a copy, outside the lock: readers are never blocked by it, other
/// writers wait (parked) until it has stored its result.
@usableFromInline
final class MutablePropertyStorage<Value>: SerialGate<MutablePropertyStorage<Value>.Operation>,
    @unchecked Sendable
{
    // Safety: `value` and `finished` are guarded by `lock`; `entries` is touched only by the gate's owner.
    @usableFromInline enum Operation {
        case set(Value)
        case add(MutablePropertyEntry<Value>, initial: Value)
        case remove(MutablePropertyEntry<Value>)
        case finish
    }

    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline @exclusivity(unchecked) var finished = false
    @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<MutablePropertyEntry<Value>> = []
    /// The thread running a `modify` closure, or none: other writers wait while it is set, parked on
    /// ``writersAddress``, and the `modify` that releases it wakes one of them (see ``waitForModify()``).
    @usableFromInline let modifier = OwnerWord()

    @usableFromInline
    init(_ value: Value) {
        self.value = value
        super.init()
    }

    /// Where writers waiting for a `modify` to finish park.
    @inlinable
    var writersAddress: UInt { parkingAddress(of: self) &+ 2 }

    @inlinable
    func checkNotModifying(_ me: UInt) {
        if modifier.isOwned(by: me) {
            preconditionFailure(
                "MutableProperty: the property was accessed from inside its own modify closure "
                    + "(a programmer error: the closure receives the value inout; use that).")
        }
    }

    @inlinable
    func get() -> Value {
        checkNotModifying(currentThreadID)
        lock.lock()
        let current = value
        lock.unlock()
        return current
    }

    @inlinable
    func set(_ newValue: Value) {
        let me = currentThreadID
        checkNotModifying(me)
        var oldValue: Value?
        var modifying = false
        repeat {
            if modifier.isOwned, waitForModify() {
                // Woken by the `modify` that ended, which wakes one writer: a set does not take the
                // modifier's place, so it passes the wake on to the next writer parked behind it.
                modifier.wakeOne(parkedAt: writersAddress)
            }
            // The closures reach `self` through an unretained reference: capturing `self` would make every
            // set retain and release the storage (two atomic operations on a line all writers share).
            let storage = Unmanaged.passUnretained(self)
            submitEventInOrder {
                storage._withUnsafeGuaranteedRef { storage in
                    // A `modify` started meanwhile: wait for it, so that its read-modify-write stays atomic.
                    modifying = storage.modifier.isOwnedRelaxed
                    if modifying { return nil }
                    // The old value is released after the lock (its deinit is user code).
                    oldValue = storage.value
                    storage.value = newValue
                    return .set(newValue)
                }
            } perform: { operation in
                storage._withUnsafeGuaranteedRef { $0.perform(operation) }
            }
        } while modifying
        withExtendedLifetime(oldValue) {}
    }

    @inlinable
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        let me = currentThreadID
        checkNotModifying(me)
        // A writer that parked takes the modifier with the waiters bit set: other writers may still be
        // parked behind it, and its own end must wake the next one.
        var woken = false
        lock.lock()
        while true {
            // Room in the backlog is waited for here, before taking the modifier: the store at the end
            // must not wait for it while holding the modifier, since the thread that makes room (the
            // gate's owner) may be waiting for the modifier itself — a set from inside an observer.
            waitForRoomInOrder { self.perform($0) }
            if modifier.tryAcquire(by: me, markingWaiters: woken) { break }
            lock.unlock()
            if waitForModify() { woken = true }
            lock.lock()
        }
        var copy = value
        lock.unlock()
        defer {
            var oldValue: Value?
            // Without waiting: see above (at most one operation per `modify` goes past the bound).
            submitInOrderWithoutWaiting {
                oldValue = value
                value = copy
                // Wake the next writer now, not after this thread's delivery (which may take a while).
                if modifier.release() {
                    modifier.wakeOne(parkedAt: writersAddress)
                }
                return .set(copy)
            } perform: {
                self.perform($0)
            }
            withExtendedLifetime(oldValue) {}
        }
        return try action(&copy)
    }

    /// Waits until no `modify` is in progress: a short bounded retry (a `modify` closure is usually a few
    /// instructions long), then parks. Returns whether it parked — and was woken, as the one writer that the
    /// ending `modify` wakes, so it must take the modifier with the waiters bit set or pass the wake on.
    ///
    /// One writer is woken per `modify` that ends, not all of them: with more writers than cores, waking
    /// every parked writer at each step makes them fight for the processor and turns each step into
    /// several context switches (a convoy).
    @usableFromInline
    func waitForModify() -> Bool {
        modifier.waitUntilReleased(parkingAt: writersAddress, spinning: 16)
    }

    @inlinable
    func perform(_ operation: Operation) {
        switch operation {
        case .set(let newValue):
            // `perform` never nests (reentrant operations are queued), so `entries` can't change here.
            var index = 0
            while index < entries.count {
                call(entries[index], .next(newValue))
                index += 1
            }
            exitCallback()
        case .add(let entry, let initial):
            call(entry, .next(initial))
            exitCallback()
            if entry.disposed.load(ordering: .relaxed) { return }
            entries.append(entry)
        case .remove(let entry):
            removeEntry(entry)
        case .finish:
            let all = entries
            entries = []
            for entry in all { call(entry, .completed) }
            exitCallback()
            for entry in all { entry.lifetime.dispose() }
        }
    }

    @inlinable
    func call(_ entry: MutablePropertyEntry<Value>, _ event: Event<Value, Never>) {
        enterCallback(entry.id)
        if entry.disposed.load(ordering: .sequentiallyConsistent) {
            if !entry.skipped.load(ordering: .relaxed) { entry.skipped.store(true, ordering: .releasing) }
        } else {
            entry.sink.send(event)
        }
    }

    /// A new subscriber: its initial value is the value now; it hears every set after this point.
    @usableFromInline
    func add(_ entry: MutablePropertyEntry<Value>) {
        var initial: Value?
        // A join: it waits for room like a set (a thread subscribing and disposing in a loop must not keep
        // the backlog full and starve the writers waiting for it), and does not stay to deliver a flood.
        submitJoinInOrder {
            if finished {
                initial = value
                return nil
            }
            return .add(entry, initial: value)
        } perform: {
            self.perform($0)
        }
        if let initial {
            // The property is gone: the initial value, then completion.
            entry.sink.send(.next(initial))
            entry.sink.send(.completed)
            entry.lifetime.dispose()
        }
    }

    /// A subscriber disposed (any thread): returns once no callback to it can be in progress.
    @usableFromInline
    func remove(_ entry: MutablePropertyEntry<Value>) {
        waitForCallback(entry.id, skipped: entry.skipped)
        // In place under the lock when the gate is idle (see ``SerialGate/submitBookkeepingInOrder(_:inPlace:perform:)``):
        // the disposer never delivers what other threads set meanwhile. The entry is held by the caller, so
        // removing it releases no user code.
        submitBookkeepingInOrder(.remove(entry)) {
            guard case .remove(let entry) = $0 else { return false }
            self.removeEntry(entry)
            return true
        } perform: {
            self.perform($0)
        }
    }

    @usableFromInline
    func removeEntry(_ entry: MutablePropertyEntry<Value>) {
        if let index = entries.firstIndex(where: { $0 === entry }) {
            entries.remove(at: index)
        }
    }

    /// The property deinitialized: subscribers complete.
    @usableFromInline
    func finish() {
        // Never parks: called from the property's `deinit`.
        submitInOrderWithoutWaiting {
            finished = true
            return .finish
        } perform: {
            self.perform($0)
        }
    }
}

/// One subscriber of a ``MutableProperty``; also the subscription's cleanup.
@usableFromInline
final class MutablePropertyEntry<Value>: Disposable, @unchecked Sendable {
    @usableFromInline let sink: Sink<Value, Never>
    @usableFromInline let lifetime: CompositeDisposable
    @usableFromInline let storage: MutablePropertyStorage<Value>
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// Set by the gate's owner when it found this entry disposed and skipped it: it never calls it again.
    @usableFromInline let skipped = Atomic<Bool>(false)

    @usableFromInline
    init(sink: Sink<Value, Never>, lifetime: CompositeDisposable, storage: MutablePropertyStorage<Value>) {
        self.sink = sink
        self.lifetime = lifetime
        self.storage = storage
    }

    /// This entry's identity in the gate's `current`.
    @inlinable
    var id: UInt { parkingAddress(of: self) }

    @usableFromInline var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline
    func dispose() {
        if disposed.exchange(true, ordering: .sequentiallyConsistent) { return }
        storage.remove(self)
    }
}
