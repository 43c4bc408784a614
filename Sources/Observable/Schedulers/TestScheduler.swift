/// A scheduler on virtual time, for deterministic tests of anything involving time (RAC's
/// `RACTestScheduler`).
///
/// Nothing runs until the test advances the clock. Due work runs in (time, scheduling order) order,
/// on the thread that advances, with no lock held while it runs — so scheduled work may schedule
/// more work, which runs in the same advance if it is due.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let results = Recorded<String>()    // any thread-safe collector
/// scheduler.schedule(after: .seconds(2)) { results.append("b") }
/// scheduler.schedule(after: .seconds(1)) { results.append("a") }
/// scheduler.advance(by: .seconds(1))   // runs "a"; now == 1 s
/// scheduler.run()                      // runs "b";  now == 2 s
/// ```
public final class TestScheduler: Scheduler, @unchecked Sendable {
    // Safety: all mutable state is accessed under `lock`; actions run outside it.
    private struct Item {
        let time: Duration
        let sequence: UInt64
        let interval: Duration?
        let action: @Sendable () -> Void
        let cancel: AnyDisposable
    }

    private let lock = Lock()
    private var clock: Duration
    private var sequence: UInt64 = 0
    private var queue: [Item] = []

    /// Creates a scheduler whose clock starts at `start` (zero by default).
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// ```
    public init(start: Duration = .zero) {
        clock = start
    }

    /// The virtual time: the origin plus every advance so far.
    ///
    /// ```swift
    /// scheduler.advance(by: .seconds(3))
    /// scheduler.now   // 3 seconds
    /// ```
    public var now: Duration { lock.withLock { clock } }

    /// The number of actions waiting to run (cancelled ones are not counted).
    ///
    /// ```swift
    /// XCTAssertEqual(scheduler.pendingCount, 0)
    /// ```
    public var pendingCount: Int {
        lock.withLock { queue.filter { !$0.cancel.isDisposed }.count }
    }

    /// Schedules `action` at the current virtual time; it runs on the next advance.
    ///
    /// ```swift
    /// scheduler.schedule { print("on the next advance") }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(delay: .zero, interval: nil, action)
    }

    /// Schedules `action` `delay` after the current virtual time.
    ///
    /// ```swift
    /// scheduler.schedule(after: .milliseconds(500)) { print("at 0.5 s") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(delay: delay, interval: nil, action)
    }

    /// Schedules `action` after `delay`, then every `interval` (at least one nanosecond).
    ///
    /// ```swift
    /// scheduler.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// scheduler.advance(by: .seconds(2))   // tick tick tick (at 0, 1 and 2 s)
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
    /// scheduler.advance(by: .milliseconds(100))
    /// ```
    public func advance(by duration: Duration = .zero) {
        advance(to: now + max(duration, .zero))
    }

    /// Runs everything due by `time` in (time, scheduling order) order, then sets the clock to `time`
    /// (the clock never moves back: a time in the past runs nothing).
    ///
    /// ```swift
    /// scheduler.advance(to: .seconds(10))
    /// ```
    public func advance(to time: Duration) {
        while let item = popDue(notAfter: time) {
            run(item)
        }
        lock.withLock { clock = max(clock, time) }
    }

    /// Runs everything scheduled, moving the clock forward as needed, until nothing is left.
    /// Repeating work would never end: `run()` stops after `limit` actions and reports it.
    ///
    /// ```swift
    /// scheduler.run()
    /// ```
    /// - Returns: the number of actions run.
    @discardableResult
    public func run(limit: Int = 1_000_000) -> Int {
        var count = 0
        while count < limit, let item = popDue(notAfter: nil) {
            run(item)
            count += 1
        }
        return count
    }

    private func run(_ item: Item) {
        guard !item.cancel.isDisposed else { return }
        item.action()
        if let interval = item.interval, !item.cancel.isDisposed {
            lock.withLock {
                insert(
                    Item(
                        time: item.time + interval, sequence: nextSequence(), interval: interval,
                        action: item.action, cancel: item.cancel))
            }
        }
    }

    private func enqueue(delay: Duration, interval: Duration?, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        let cancel = AnyDisposable()
        lock.withLock {
            insert(
                Item(
                    time: clock + max(delay, .zero), sequence: nextSequence(), interval: interval,
                    action: action, cancel: cancel))
        }
        return cancel
    }

    /// Called with `lock` held.
    private func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }

    /// Called with `lock` held. Keeps `queue` sorted by (time, sequence).
    private func insert(_ item: Item) {
        var low = 0
        var high = queue.count
        while low < high {
            let mid = (low + high) / 2
            let other = queue[mid]
            if other.time < item.time || (other.time == item.time && other.sequence < item.sequence) {
                low = mid + 1
            } else {
                high = mid
            }
        }
        queue.insert(item, at: low)
    }

    private func popDue(notAfter limit: Duration?) -> Item? {
        lock.withLock {
            while let first = queue.first, first.cancel.isDisposed {
                queue.removeFirst()
            }
            guard let first = queue.first else { return nil }
            if let limit, first.time > limit { return nil }
            queue.removeFirst()
            clock = max(clock, first.time)
            return first
        }
    }
}
