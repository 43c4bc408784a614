import Dispatch
import Synchronization

/// The thread-safe state behind ``MutableProperty``: the value, the subscribers, and the queue that
/// delivers changes in the order they were made.
///
/// Every operation — a set, a new subscriber, a removal, the end — takes the spin lock only to update
/// the value and to append itself to `queue` (or, if nobody is delivering, to become the *drainer*).
/// The drainer runs the operations in lock order, outside the lock, so:
///
/// - changes reach every subscriber in the order the sets happened, and the last value delivered is the
///   current value;
/// - a subscriber's initial value is read under the lock at its position in that order: it never
///   receives a set that happened before its initial value, and receives every set after it;
/// - a set from inside a subscriber (reentrancy) or from another thread while one is delivering is
///   queued and delivered by the drainer after the current operation (the setter returns at once; the
///   value itself is already stored);
/// - disposing from another thread while the drainer delivers waits until the operation in progress has
///   returned (guarantee 2); nothing reaches the subscriber afterwards.
///
/// An uncontended set costs two lock acquisitions and the calls; it allocates nothing.
@usableFromInline
final class MutablePropertyStorage<Value>: @unchecked Sendable {
    // Safety: `value`, `queue`, `drainer`, `waiters` and `finished` are guarded by `lock`;
    // `entries` is touched only by the drainer (ownership is handed over under `lock`).
    @usableFromInline enum Operation {
        case set(Value)
        case add(MutablePropertyEntry<Value>, initial: Value)
        case remove(MutablePropertyEntry<Value>)
        case finish
    }

    @usableFromInline let lock = SpinLock()
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline @exclusivity(unchecked) var queue: [Operation] = []
    /// The thread delivering (`currentThreadID`), or 0.
    @usableFromInline @exclusivity(unchecked) var drainer: UInt = 0
    @usableFromInline @exclusivity(unchecked) var waiters: [DispatchSemaphore] = []
    @usableFromInline @exclusivity(unchecked) var finished = false
    @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<MutablePropertyEntry<Value>> = []
    /// The thread running a `modify` closure, or 0 (to diagnose reentrant access instead of deadlocking).
    @usableFromInline let modifier = Atomic<UInt>(0)

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }

    @inlinable
    func checkNotModifying(_ me: UInt) {
        if modifier.load(ordering: .relaxed) == me {
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
        lock.lock()
        // The old value is released after the lock (its deinit is user code).
        let oldValue = value
        value = newValue
        publish(newValue, me: me)
        withExtendedLifetime(oldValue) {}
    }

    @inlinable
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        let me = currentThreadID
        checkNotModifying(me)
        lock.lock()
        modifier.store(me, ordering: .relaxed)
        defer {
            modifier.store(0, ordering: .relaxed)
            publish(value, me: me)
        }
        return try action(&value)
    }

    /// Called with `lock` held, after `value` became `newValue`: delivers it, or queues it behind the
    /// operation being delivered. Releases the lock.
    @inlinable
    func publish(_ newValue: Value, me: UInt) {
        if drainer != 0 {
            queue.append(.set(newValue))
            lock.unlock()
            return
        }
        drainer = me
        lock.unlock()
        deliver(newValue)
        drain()
    }

    @inlinable
    func deliver(_ newValue: Value) {
        for entry in entries where !entry.disposed.load(ordering: .relaxed) {
            entry.sink.send(.next(newValue))
        }
    }

    /// Runs what was queued meanwhile, then gives up the drainer role.
    @inlinable
    func drain() {
        while true {
            lock.lock()
            if queue.isEmpty && waiters.isEmpty {
                drainer = 0
                lock.unlock()
                return
            }
            drainSlow()
        }
    }

    /// Called with `lock` held: takes the queued operations and the waiters, runs the operations.
    @usableFromInline
    func drainSlow() {
        var batch: [Operation] = []
        swap(&batch, &queue)
        var wake: [DispatchSemaphore] = []
        swap(&wake, &waiters)
        lock.unlock()
        for semaphore in wake { semaphore.signal() }
        for operation in batch { perform(operation) }
    }

    @usableFromInline
    func perform(_ operation: Operation) {
        switch operation {
        case .set(let newValue):
            deliver(newValue)
        case .add(let entry, let initial):
            if entry.disposed.load(ordering: .relaxed) { return }
            entry.sink.send(.next(initial))
            if entry.disposed.load(ordering: .relaxed) { return }
            entries.append(entry)
        case .remove(let entry):
            if let index = entries.firstIndex(where: { $0 === entry }) {
                entries.remove(at: index)
            }
        case .finish:
            let all = entries
            entries = []
            for entry in all where !entry.disposed.load(ordering: .relaxed) {
                entry.sink.send(.completed)
                entry.lifetime.dispose()
            }
        }
    }

    /// Runs `operation` now (becoming the drainer) or queues it; returns whether it ran here.
    @usableFromInline
    func submit(_ operation: Operation, waitIfDelivering: Bool) {
        let me = currentThreadID
        if drainer == 0 {
            drainer = me
            lock.unlock()
            perform(operation)
            drain()
            return
        }
        queue.append(operation)
        if drainer == me || !waitIfDelivering {
            lock.unlock()
            return
        }
        let semaphore = DispatchSemaphore(value: 0)
        waiters.append(semaphore)
        lock.unlock()
        semaphore.wait()
    }

    /// A new subscriber: its initial value is the value now; it hears every set after this point.
    @usableFromInline
    func add(_ entry: MutablePropertyEntry<Value>) {
        lock.lock()
        let current = value
        if finished {
            lock.unlock()
            entry.sink.send(.next(current))
            entry.sink.send(.completed)
            entry.lifetime.dispose()
            return
        }
        submit(.add(entry, initial: current), waitIfDelivering: false)
    }

    /// A subscriber disposed (any thread): returns once no delivery to it can be in progress.
    @usableFromInline
    func remove(_ entry: MutablePropertyEntry<Value>) {
        lock.lock()
        submit(.remove(entry), waitIfDelivering: true)
    }

    /// The property deinitialized: subscribers complete.
    @usableFromInline
    func finish() {
        lock.lock()
        finished = true
        submit(.finish, waitIfDelivering: false)
    }
}

/// One subscriber of a ``MutableProperty``; also the subscription's cleanup.
@usableFromInline
final class MutablePropertyEntry<Value>: Disposable, @unchecked Sendable {
    @usableFromInline let sink: Sink<Value, Never>
    @usableFromInline let lifetime: CompositeDisposable
    @usableFromInline let storage: MutablePropertyStorage<Value>
    @usableFromInline let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(sink: Sink<Value, Never>, lifetime: CompositeDisposable, storage: MutablePropertyStorage<Value>) {
        self.sink = sink
        self.lifetime = lifetime
        self.storage = storage
    }

    @usableFromInline var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline
    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        storage.remove(self)
    }
}
