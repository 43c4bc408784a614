import Dispatch
import TetherEngine

/// Runs work on a serial Dispatch queue (RAC's `RACQueueScheduler` / `+schedulerWithPriority:`).
///
/// Work scheduled on one `QueueScheduler` runs in order, one item at a time.
///
/// ```swift
/// let work = QueueScheduler(priority: .background, name: "search")
/// work.schedule { print("runs on the search queue") }
/// ```
///
/// ## The main queue on Linux
/// ``main`` targets `DispatchQueue.main`, which on Linux only runs while the main thread drives it:
/// call `dispatchMain()` (never returns) or run `RunLoop.main` (`RunLoop.main.run(until:)`), as a
/// terminal or GTK program's event loop does. XCTest drains it during `wait(for:timeout:)`. Without
/// that, work scheduled on `.main` never runs. Use ``isCurrent`` — not `Thread.isMainThread`, which is
/// `false` on the main queue after `dispatchMain()` — to ask whether code runs on a scheduler's queue.
/// Inside a scheduler's work, ``currentScheduler`` is that scheduler.
public final class QueueScheduler: Scheduler {
    /// A queue priority, as RAC's `RACSchedulerPriority`.
    ///
    /// ```swift
    /// QueueScheduler(priority: .high)
    /// ```
    public enum Priority: Sendable {
        /// User-initiated work.
        case high
        /// The default priority.
        case `default`
        /// Utility work.
        case low
        /// Background work.
        case background

        var qos: DispatchQoS {
            switch self {
            case .high: return .userInitiated
            case .default: return .default
            case .low: return .utility
            case .background: return .background
            }
        }
    }

    /// The Dispatch queue that runs this scheduler's work.
    ///
    /// ```swift
    /// let scheduler = QueueScheduler()
    /// scheduler.queue.sync { /* … */ }
    /// ```
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()

    /// The scheduler for `DispatchQueue.main` (see "The main queue on Linux" above).
    ///
    /// ```swift
    /// let results = Subject<[String], Never>()
    /// results.deliver(on: QueueScheduler.main)
    /// ```
    public static let main = QueueScheduler(queue: .main)

    /// Creates a scheduler with its own serial queue.
    ///
    /// ```swift
    /// let io = QueueScheduler(priority: .low, name: "io")
    /// ```
    public init(priority: Priority = .default, name: String = "tether.queue-scheduler") {
        queue = DispatchQueue(label: name, qos: priority.qos)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
        queue.setSpecific(key: schedulerNameKey, value: queue.label)
    }

    /// Creates a scheduler with its own serial queue, labelled `name`, whose work runs on `targetQueue`
    /// (RAC's `-initWithName:targetQueue:`). Work stays in order even if `targetQueue` is concurrent.
    ///
    /// ```swift
    /// let shared = DispatchQueue(label: "shared", attributes: .concurrent)
    /// let parser = QueueScheduler(name: "parser", targetQueue: shared)
    /// parser.schedule { print("runs in order, on a queue that targets shared") }
    /// ```
    public init(name: String, targetQueue: DispatchQueue) {
        queue = DispatchQueue(label: name, target: targetQueue)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
        queue.setSpecific(key: schedulerNameKey, value: queue.label)
    }

    /// Creates a scheduler on an existing queue. Work runs in order only if `queue` is serial.
    ///
    /// ```swift
    /// let myQueue = DispatchQueue(label: "work")
    /// let scheduler = QueueScheduler(queue: myQueue)
    /// ```
    public init(queue: DispatchQueue) {
        self.queue = queue
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
        queue.setSpecific(key: schedulerNameKey, value: queue.label)
    }

    /// Whether the calling code runs on this scheduler's queue.
    ///
    /// ```swift
    /// func updateScreen() {}
    /// if QueueScheduler.main.isCurrent { updateScreen() }
    /// ```
    public var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self)
    }

    /// Monotonic time since boot.
    ///
    /// ```swift
    /// let scheduler = QueueScheduler()
    /// scheduler.now
    /// ```
    public var now: Duration { monotonicNow() }

    /// Runs `action` asynchronously on the queue, unless disposed first.
    ///
    /// ```swift
    /// let scheduler = QueueScheduler()
    /// scheduler.schedule { print("async") }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = AnyDisposable()
        queue.async {
            if !cancel.isDisposed { CurrentSchedulerSlot.run(action, as: self) }
        }
        return cancel
    }

    /// Runs `action` on the queue after `delay`, unless disposed first.
    ///
    /// ```swift
    /// let scheduler = QueueScheduler()
    /// scheduler.schedule(after: .milliseconds(300)) { print("later") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = AnyDisposable()
        queue.asyncAfter(deadline: deadline(after: delay)) {
            if !cancel.isDisposed { CurrentSchedulerSlot.run(action, as: self) }
        }
        return cancel
    }

    /// Runs `action` on the queue after `delay`, then every `interval`, until disposed
    /// (a `DispatchSourceTimer`: no run loop needed).
    ///
    /// ```swift
    /// let scheduler = QueueScheduler()
    /// let ticking = scheduler.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// // …
    /// ticking.dispose()   // the ticks stop
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Dispatch sources are thread-safe; the SDK just does not mark them Sendable.
        let source = UncheckedSendable(timer)
        let cancel = AnyDisposable { source.value.cancel() }
        timer.setEventHandler {
            if !cancel.isDisposed { CurrentSchedulerSlot.run(action, as: self) }
        }
        let nanoseconds = max(interval.clampedNanoseconds, 1)
        timer.schedule(
            deadline: deadline(after: delay),
            repeating: .nanoseconds(Int(clamping: nanoseconds)),
            leeway: .nanoseconds(0))
        timer.resume()
        return cancel
    }

    private func deadline(after delay: Duration) -> DispatchTime {
        let nanoseconds = delay.clampedNanoseconds
        if nanoseconds >= Int64(Int.max / 2) { return .distantFuture }
        return .now() + .nanoseconds(Int(nanoseconds))
    }
}

/// Each ``QueueScheduler``'s queue carries its label under this key (for the debugging tools' log entries).
let schedulerNameKey = DispatchSpecificKey<String>()
