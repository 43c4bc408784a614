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
    // Checked: the only mutable state is `state`, read and written under its lock (`LockedState`), where
    // every `ScheduledAction`'s own state is touched too; actions run outside it.

    /// The scheduler's mutable state.
    private struct State {
        var clock: Duration
        var sequence: UInt64 = 0
        var queue = IndexedHeap<ScheduledAction>()

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
        // A pending action often captures an observer that keeps the action's own handle (a
        // `ScheduledAction`, which holds the action): release the actions with the scheduler, as a queue
        // that owned them alone would. Taken out first, released after: a released action's deinit may
        // dispose other handles.
        let actions = state.withLock { $0.queue.removeAll().map { $0.takeAction() } }
        withExtendedLifetime(actions) {}
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
        while let (item, action) = popDue(notAfter: time) {
            run(item, action)
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
        while count < limit, let (item, action) = popDue(notAfter: nil) {
            run(item, action)
            count += 1
        }
        return count
    }

    private func run(_ item: ScheduledAction, _ action: @Sendable () -> Void) {
        if !item.isDisposed { CurrentSchedulerSlot.run(action, as: self) }
        guard let interval = item.interval else { return }
        let released = state.withLock { state -> (@Sendable () -> Void)? in
            // Checked under the lock: a `dispose()` that set the flag after this check finds the item
            // back in the queue and takes it out.
            guard !item.isDisposed else { return item.takeAction() }
            item.due = ScheduledAction.Due(time: item.due.time + interval, sequence: state.nextSequence())
            state.queue.insert(item)
            return nil
        }
        withExtendedLifetime(released) {}
    }

    private func enqueue(delay: Duration, interval: Duration?, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        let item = ScheduledAction(scheduler: self, interval: interval, action: action)
        state.withLock { state in
            let time = state.clock + max(delay, .zero)
            item.due = ScheduledAction.Due(time: time, sequence: state.nextSequence())
            state.queue.insert(item)
        }
        return item
    }

    /// Takes the first item due by `limit` (any, if `nil`) out of the queue and moves the clock to its
    /// time. A one-shot item gives up its action, so that the action is released once it has run.
    private func popDue(notAfter limit: Duration?) -> (ScheduledAction, @Sendable () -> Void)? {
        var discarded: [@Sendable () -> Void] = []
        defer { withExtendedLifetime(discarded) {} }  // released after the lock
        return state.withLock { state in
            while let first = state.queue.min {
                // Disposed on another thread that has not taken it out yet: it will find it gone.
                if first.isDisposed {
                    state.queue.popMin()
                    if let action = first.takeAction() { discarded.append(action) }
                    continue
                }
                if let limit, first.due.time > limit { return nil }
                state.queue.popMin()
                state.clock = max(state.clock, first.due.time)
                guard let action = first.interval == nil ? first.takeAction() : first.action else {
                    preconditionFailure("TestScheduler: a pending action that is not disposed has no closure")
                }
                return (first, action)
            }
            return nil
        }
    }

    /// Takes a disposed item out of the queue, in O(log n), and releases its action (after the lock:
    /// releasing it may run deinitializers that call back into the scheduler).
    fileprivate func cancel(_ item: ScheduledAction) {
        let released = state.withLock { state -> (@Sendable () -> Void)? in
            state.queue.remove(item)
            return item.takeAction()
        }
        withExtendedLifetime(released) {}
    }
}

/// One scheduled action of a ``TestScheduler``: its place in the scheduler's queue, and the disposable
/// that cancels it.
private final class ScheduledAction: Disposable, IndexedHeapElement, @unchecked Sendable {
    // Safety: `disposed` is a one-shot flag; the `var`s are read and written only under the owning
    // scheduler's lock (inside its `state.withLock`). Invariant: `action` is non-nil only while the item is in the
    // queue, or is a repeating item being run (whose runner holds the scheduler), so the scheduler's
    // deinit releases every action left; `dispose()` never touches `action` without the lock.

    /// When the action is due, ordered by time, then by scheduling order (FIFO at equal times).
    struct Due: Comparable {
        var time: Duration
        var sequence: UInt64

        static func < (lhs: Due, rhs: Due) -> Bool {
            lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
        }
    }

    @exclusivity(unchecked) var due = Due(time: .zero, sequence: 0)
    /// `nil` once a one-shot action has been handed out to run, or once disposed.
    @exclusivity(unchecked) var action: (@Sendable () -> Void)?
    @exclusivity(unchecked) var heapIndex: Int?
    /// The repeat interval, `nil` for a one-shot action.
    let interval: Duration?
    private let disposed = AtomicFlag()
    private weak var scheduler: TestScheduler?

    init(scheduler: TestScheduler, interval: Duration?, action: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        self.interval = interval
        self.action = action
    }

    var heapPriority: Due { due }

    /// Clears `action` and returns what it held, for the caller to release after the lock. Called with
    /// the scheduler's lock held (or from its deinit).
    func takeAction() -> (@Sendable () -> Void)? {
        let taken = action
        action = nil
        return taken
    }

    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        guard disposed.raise() else { return }
        // With the scheduler gone, its deinit has released (or is releasing) the action.
        scheduler?.cancel(self)
    }
}
