import TetherEngine

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
///   receives a set that happened before its initial value, and receives every set after it. A new
///   subscriber joins in place and catches up on its own thread (``JoinCatchUp``): subscribing never
///   delivers to other subscribers, and never waits for them;
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
    // Safety: `value`, `finished`, `joinQueue` and `catchingUp` are guarded by the gate's lock; `joined` is
    // touched only by the gate's owner.
    @usableFromInline enum Operation {
        /// A new value, and the joins it comes after (the join queue's count when it was set).
        case set(Value, seen: UInt)
        case remove(MutablePropertyEntry<Value>)
        /// A subscriber that fell behind while catching up: the owner delivers its backlog (see
        /// ``JoinCatchUp``).
        case flush(MutablePropertyEntry<Value>)
        case finish
    }

    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline @exclusivity(unchecked) var finished = false
    /// The subscribers the owner delivers to, with their join order (the engine's ``JoinedSubscribers``).
    /// Touched only by the gate's owner.
    @usableFromInline @exclusivity(unchecked) var joined = JoinedSubscribers<MutablePropertyEntry<Value>>()
    /// Subscribers that joined and that the owner has not taken in yet (the engine's ``JoinQueue``); a set is
    /// stamped with its count. Guarded by the gate's lock.
    @usableFromInline @exclusivity(unchecked) var joinQueue = JoinQueue<MutablePropertyEntry<Value>>()
    /// How many subscribers are catching up (see ``JoinCatchUp``); changed under the gate's lock. While it is 0 the
    /// owner calls every entry without looking for a catch-up. Decremented (releasing) after the joiner's
    /// last callback; the owner loads it acquiring, so a call it makes after reading 0 comes after that
    /// callback.
    /// The subscribers catching up on joining (see ``JoinCatchUp``). Guarded by the gate's lock.
    @usableFromInline @exclusivity(unchecked) var catchingUp = CatchingUpSubscribers<Value, Never>()
    /// `catchingUp`'s count, read without the lock (see ``CatchUpCount``).
    @usableFromInline let catchUps = CatchUpCount()
    /// The thread running a `modify` closure, or none: the engine's writer (`SerialGate+Writers`). Other
    /// writers wait, parked, while it is held; the `modify` that releases it wakes one of them.
    @usableFromInline let modifier = OwnerWord()

    @usableFromInline
    init(_ value: Value) {
        self.value = value
        super.init()
    }

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
        return withLock { value }
    }

    @inlinable
    func set(_ newValue: Value) {
        let me = currentThreadID
        checkNotModifying(me)
        var oldValue: Value?
        var modifying = false
        repeat {
            waitForWriter(modifier)
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
                    return .set(newValue, seen: storage.joinQueue.count)
                }
            } perform: { operation in
                storage._withUnsafeGuaranteedRef { $0.perform(operation) }
            }
        } while modifying
        withExtendedLifetime(oldValue) {}
    }

    @inlinable
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        checkNotModifying(currentThreadID)
        // The engine's writer exclusion (`SerialGate+Writers`): waits for room in the backlog and for any
        // other `modify`, then reads the value under the lock.
        var copy = acquireWriter(modifier, perform: { self.perform($0) }, whileLocked: { value })
        defer {
            var oldValue: Value?
            // Without waiting: see above (at most one operation per `modify` goes past the bound).
            submitInOrderWithoutWaiting {
                oldValue = value
                value = copy
                // Wake the next writer now, not after this thread's delivery (which may take a while).
                releaseWriter(modifier)
                return .set(copy, seen: joinQueue.count)
            } perform: {
                self.perform($0)
            }
            withExtendedLifetime(oldValue) {}
        }
        return try action(&copy)
    }

    @inlinable
    func perform(_ operation: Operation) {
        switch operation {
        case .set(let newValue, let seen):
            // Subscribers that joined before this value was set and are not taken in yet: take them in.
            if joined.needsTakingIn(seen) { takeJoins() }
            if _fastPath(joined.allJoined(before: seen) && catchUps.isZero) {
                // One subscriber (the common case) is borrowed unretained: `perform` never nests (reentrant
                // operations are queued), so `entries` holds it for the call (retaining it or the array would
                // be two atomic operations per set). Several are called from a snapshot, one retain of the
                // array for all of them.
                if joined.entries.count == 1 {
                    Unmanaged.passUnretained(joined.entries[0])._withUnsafeGuaranteedRef {
                        call($0, .next(newValue))
                    }
                } else {
                    for entry in joined.entries { call(entry, .next(newValue)) }
                }
            } else {
                deliverToJoined(newValue, seen: seen)
            }
            exitCallback()
        case .remove(let entry):
            removeEntry(entry)
        case .flush(let entry):
            flush(entry)
        case .finish:
            // `finished` was set under the lock with this operation: nobody joins after it.
            takeJoins()
            let all = joined.removeAll()
            var ending = ContiguousArray<MutablePropertyEntry<Value>>()
            ending.reserveCapacity(all.count)
            for entry in all where !handOver(.completed, to: entry) {
                call(entry, .completed)
                ending.append(entry)
            }
            exitCallback()
            // A subscriber catching up ends its subscription itself, after the completion.
            for entry in ending { entry.lifetime.dispose() }
        }
    }

    /// Delivers `value`, stamped `seen`, to the subscribers that joined before it was set, handing it to
    /// those still catching up.
    @usableFromInline
    func deliverToJoined(_ value: Value, seen: UInt) {
        let snapshot = joined
        for index in snapshot.entries.indices where snapshot.receives(at: index, stamped: seen) {
            let entry = snapshot.entries[index]
            if !handOver(.next(value), to: entry) { call(entry, .next(value)) }
        }
    }

    /// Performs the `flush` a joiner that fell behind queued: delivers its backlog to `entry` as the owner,
    /// and from now on calls it directly.
    @usableFromInline
    func flush(_ entry: MutablePropertyEntry<Value>) {
        let taken = withLock { () -> (backlog: [Event<Value, Never>], ends: Bool)? in
            guard let catchUp = catchingUp.catchUp(of: entry) else { return nil }
            catchingUp.unlink(catchUp)
            catchUps.end()
            return catchUp.takeOver()
        }
        guard let taken else { return }
        let ended = JoinCatchUp.deliver(takenOver: taken) { call(entry, $0) }
        exitCallback()
        if ended { entry.lifetime.dispose() }
    }

    /// Appends `event` to the backlog of `entry`'s catch-up, if it is catching up; returns whether it did.
    @inlinable
    func handOver(_ event: Event<Value, Never>, to entry: MutablePropertyEntry<Value>) -> Bool {
        if catchUps.isZero { return false }
        return withLock {
            guard let catchUp = catchingUp.catchUp(of: entry) else { return false }
            catchUp.handOver(event)
            return true
        }
    }

    /// Called by the owner: takes the subscribers that joined meanwhile in.
    @usableFromInline
    func takeJoins() {
        withLock { joined.takeIn(&joinQueue) }
    }

    @inlinable
    func call(_ entry: MutablePropertyEntry<Value>, _ event: Event<Value, Never>) {
        callUnlessDisposed(entry.id, entry.flags) { entry.callbacks.call { $0.send(event) } }
    }

    /// A new subscriber: its initial value is the value now; it hears every set after this point. It joins
    /// in place and catches up on the calling thread (``JoinCatchUp``): it calls no other subscriber and
    /// waits for nobody.
    @usableFromInline
    func add(_ entry: MutablePropertyEntry<Value>) {
        let catchUp = JoinCatchUp<Value, Never>()
        let (initial, ended) = withLock {
            if finished { return (value, true) }
            catchingUp.link(catchUp, for: entry)
            catchUps.begin()
            // Never closed: after `finished`, a subscriber gets the last value and completion below.
            _ = joinQueue.join(entry)
            return (value, false)
        }
        if ended {
            // The property is gone: the initial value, then completion.
            entry.callbacks.call { sink in
                sink.send(.next(initial))
                sink.send(.completed)
            }
            entry.lifetime.dispose()
            return
        }
        catchUp.run(
            initial: CollectionOfOne(.next(initial)), send: { event in entry.callbacks.call { $0.send(event) } },
            gate: self,
            isDisposed: { entry.flags.isDisposedRelaxed },
            giveToOwner: {
                var queued = false
                submitInOrderWithoutWaiting {
                    // Only to another thread delivering a flood; never taking the gate (see `JoinCatchUp`).
                    guard orderedSubmissionDeliveryLocked() == .byAnotherThread else { return nil }
                    queued = true
                    return .flush(entry)
                } perform: {
                    self.perform($0)
                }
                return queued
            },
            unlink: {
                catchingUp.unlink(catchUp)
                catchUps.end()
            },
            end: { entry.lifetime.dispose() })
    }

    /// A subscriber disposed (any thread): returns once no callback to it can be in progress.
    @usableFromInline
    func remove(_ entry: MutablePropertyEntry<Value>) {
        // Not taken in by the owner yet (`wasPending`): the owner never calls it.
        let (catchUp, wasPending) = withLock { (catchingUp.catchUp(of: entry), removePending(entry)) }
        catchUp?.waitForJoiner()
        if wasPending { return }
        waitForCallback(entry.id, flags: entry.flags)
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
        joined.remove(entry)
    }

    /// Takes `entry` out of the join queue (called under the gate's lock); returns whether it was there.
    @usableFromInline
    func removePending(_ entry: MutablePropertyEntry<Value>) -> Bool {
        joinQueue.remove(entry)
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
final class MutablePropertyEntry<Value>: Disposable, Sendable {
    // Checked: the sink is in `SerializedCallbacks` (called one thread at a time, by the joiner and then
    // the storage's gate); the rest is constant or atomic.
    @usableFromInline let callbacks: SerializedCallbacks<Sink<Value, Never>>
    @usableFromInline let lifetime: CompositeDisposable
    @usableFromInline let storage: MutablePropertyStorage<Value>
    /// Disposed, and skipped by the gate's owner (the engine's disposal state of a subscriber).
    @usableFromInline let flags = SubscriberFlags()

    @usableFromInline
    init(sink: Sink<Value, Never>, lifetime: CompositeDisposable, storage: MutablePropertyStorage<Value>) {
        self.callbacks = SerializedCallbacks(sink)
        self.lifetime = lifetime
        self.storage = storage
    }

    /// This entry's identity in the gate's `current`.
    @inlinable
    var id: UInt { parkingAddress(of: self) }

    @usableFromInline var isDisposed: Bool { flags.isDisposed }

    @usableFromInline
    func dispose() {
        if flags.markDisposed() { return }
        storage.remove(self)
    }
}
