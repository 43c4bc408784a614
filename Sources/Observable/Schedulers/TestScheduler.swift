import TetherEngine

/// A scheduler on virtual time, for deterministic tests of anything involving time (RAC's
/// `RACTestScheduler`).
///
/// Nothing runs until the test advances the clock. Due work runs in (time, scheduling order) order,
/// on the thread that advances, with no lock held while it runs — so scheduled work may schedule
/// more work, which runs in the same advance if it is due. While it runs, ``currentScheduler`` is this
/// scheduler.
///
/// ```swift
/// let scheduler = TestScheduler()
/// scheduler.schedule(after: .seconds(2)) { print("b") }
/// scheduler.schedule(after: .seconds(1)) { print("a") }
/// scheduler.advance(by: .seconds(1))   // prints a — now == 1 s
/// scheduler.run()                      // prints b — now == 2 s
/// ```
///
/// - Complexity: scheduling, cancelling (disposing what `schedule` returned) and running each action
///   are O(log n) for n pending actions: the queue is a binary min-heap on (time, scheduling order),
///   and a cancelled action leaves it at once, so cancelled timers cost nothing later.
public final class TestScheduler: Scheduler, Sendable {
    // Checked: the only mutable state is `state`, read and written under its lock (`LockedState`). The
    // pending actions live in its queue, not in their handles (which hold only constants and a one-shot
    // flag); actions run outside the lock.

    /// When an action is due: its time, then the order it was scheduled in.
    private struct Due: Comparable {
        var time: Duration
        var sequence: UInt64

        static func < (lhs: Due, rhs: Due) -> Bool {
            lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
        }
    }

    /// A pending action in the queue, under its handle's key.
    private struct Pending {
        let handle: ScheduledAction
        let action: @Sendable () -> Void
    }

    /// The scheduler's mutable state.
    private struct State {
        var clock: Duration
        var sequence: UInt64 = 0
        /// Keyed by each handle's ``ScheduledAction/key``.
        var queue = IndexedHeap<UInt64, Due, Pending>()

        /// The next scheduling order number.
        mutating func nextSequence() -> UInt64 {
            sequence += 1
            return sequence
        }
    }

    private let state: LockedState<State>

    /// Creates a scheduler whose clock starts at `start` (zero by default).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// ```
    public init(start: Duration = .zero) {
        state = LockedState(State(clock: start))
    }

    deinit {
        // Release the pending actions with the scheduler (they are the queue's alone: a handle holds no
        // action). Taken out first, released after: a released action's deinit may dispose other handles.
        let pending = state.withLock { $0.queue.removeAll() }
        withExtendedLifetime(pending) {}
    }

    /// The virtual time: the origin plus every advance so far.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.advance(by: .seconds(3))
    /// print(scheduler.now)   // 3.0 seconds
    /// ```
    public var now: Duration { state.withLock { $0.clock } }

    /// The number of actions waiting to run (cancelled ones are not counted).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// XCTAssertEqual(scheduler.pendingCount, 0)
    /// ```
    ///
    /// - Complexity: O(1).
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    /// The number of priority comparisons the queue has made so far: the work of scheduling,
    /// cancelling and running, for tests that check complexity by counting work rather than time.
    package var queueComparisons: Int {
        state.withLock { $0.queue.comparisons }
    }

    /// Schedules `action` at the current virtual time; it runs on the next advance.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.schedule { print("on the next advance") }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(delay: .zero, interval: nil, action)
    }

    /// Schedules `action` `delay` after the current virtual time.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.schedule(after: .milliseconds(500)) { print("at 0.5 s") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(delay: delay, interval: nil, action)
    }

    /// Schedules `action` after `delay`, then every `interval` (at least one nanosecond).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// scheduler.advance(by: .seconds(2))   // prints tick, tick, tick — at 0, 1 and 2 s
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        enqueue(delay: delay, interval: max(interval, .nanoseconds(1)), action)
    }

    /// Runs everything due by `now + duration`, then sets the clock to that time.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.advance(by: .milliseconds(100))
    /// ```
    public func advance(by duration: Duration = .zero) {
        advance(to: now + max(duration, .zero))
    }

    /// Runs everything due by `time` in (time, scheduling order) order, then sets the clock to `time`
    /// (the clock never moves back: a time in the past runs nothing).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.advance(to: .seconds(10))
    /// ```
    public func advance(to time: Duration) {
        while let due = popDue(notAfter: time) {
            run(due)
        }
        state.withLock { $0.clock = max($0.clock, time) }
    }

    /// Runs everything scheduled, moving the clock forward as needed, until nothing is left.
    /// Repeating work would never end: `run()` stops after `limit` actions and reports it.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.run()
    /// ```
    /// - Returns: the number of actions run.
    @discardableResult
    public func run(limit: Int = 1_000_000) -> Int {
        var count = 0
        while count < limit, let due = popDue(notAfter: nil) {
            run(due)
            count += 1
        }
        return count
    }

    private func run(_ due: IndexedHeap<UInt64, Due, Pending>.Element) {
        let item = due.payload.handle
        if !item.isDisposed { CurrentSchedulerSlot.run(due.payload.action, as: self) }
        guard let interval = item.interval else { return }
        state.withLock { state in
            // Checked under the lock: a `dispose()` that set the flag after this check finds the item
            // back in the queue and takes it out.
            guard !item.isDisposed else { return }
            let next = Due(time: due.priority.time + interval, sequence: state.nextSequence())
            state.queue.insert(key: due.key, priority: next, payload: due.payload)
        }
        // Not put back: the action is released here, after the lock, with `due`.
    }

    private func enqueue(delay: Duration, interval: Duration?, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        state.withLock { state in
            let due = Due(time: state.clock + max(delay, .zero), sequence: state.nextSequence())
            // The first sequence number is the handle's key for good (a repeating action's later ones
            // only order it).
            let item = ScheduledAction(key: due.sequence, scheduler: self, interval: interval)
            state.queue.insert(key: item.key, priority: due, payload: Pending(handle: item, action: action))
            return item
        }
    }

    private func popDue(notAfter limit: Duration?) -> IndexedHeap<UInt64, Due, Pending>.Element? {
        var discarded: [IndexedHeap<UInt64, Due, Pending>.Element] = []
        defer { withExtendedLifetime(discarded) {} }  // released after the lock
        return state.withLock { state in
            while let first = state.queue.min {
                // Disposed on another thread that has not taken it out yet: it will find it gone.
                if first.payload.handle.isDisposed {
                    discarded.append(state.queue.popMin()!)
                    continue
                }
                if let limit, first.priority.time > limit { return nil }
                state.clock = max(state.clock, first.priority.time)
                return state.queue.popMin()
            }
            return nil
        }
    }

    fileprivate func cancel(_ item: ScheduledAction) {
        let removed = state.withLock { $0.queue.remove(item.key) }
        withExtendedLifetime(removed) {}  // the action, released after the lock
    }
}

/// What ``TestScheduler``'s `schedule` methods return: the handle of one scheduled action, which
/// disposing cancels. It holds no action (the scheduler's queue does, under the key).
private final class ScheduledAction: Disposable, Sendable {
    /// The action's key in the scheduler's queue.
    let key: UInt64
    /// Set for a repeating action.
    let interval: Duration?
    private let disposed = AtomicFlag()
    private weak let scheduler: TestScheduler?

    init(key: UInt64, scheduler: TestScheduler, interval: Duration?) {
        self.key = key
        self.scheduler = scheduler
        self.interval = interval
    }

    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        guard disposed.raise() else { return }
        // With the scheduler gone, its deinit has released (or is releasing) the action.
        scheduler?.cancel(self)
    }
}
