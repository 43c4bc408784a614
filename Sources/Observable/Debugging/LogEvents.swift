import Dispatch
import TetherEngine

/// Which events ``SignalConvertible/log(_:events:to:)`` reports.
///
/// ```swift
/// let quiet: LoggedEvents = [.error, .completed, .disposed]
/// ```
public struct LoggedEvents: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int

    /// Events from bits.
    ///
    /// ```swift
    /// let values = LoggedEvents(rawValue: 1)   // .next
    /// ```
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Each value.
    public static let next = LoggedEvents(rawValue: 1)
    /// The failure.
    public static let error = LoggedEvents(rawValue: 2)
    /// The completion.
    public static let completed = LoggedEvents(rawValue: 4)
    /// A subscription starting.
    public static let subscribed = LoggedEvents(rawValue: 8)
    /// A subscription ending (by its terminal event or by `dispose()`).
    public static let disposed = LoggedEvents(rawValue: 16)
    /// The terminal events.
    public static let terminal: LoggedEvents = [.error, .completed]
    /// Everything.
    public static let all: LoggedEvents = [.next, .error, .completed, .subscribed, .disposed]
}

/// One line of ``SignalConvertible/log(_:events:to:)``: what happened, in which pipeline, on which
/// thread and queue.
///
/// ```swift
/// Signal(values: [1]).named("numbers").log(events: .all) { entry in
///     print(entry.kind, entry.pipeline, entry.thread, entry.isMainQueue)
/// }.subscribe()
/// ```
public struct LogEntry: Sendable, CustomStringConvertible {
    /// What happened: exactly one of the ``LoggedEvents`` options.
    public let kind: LoggedEvents
    /// The event (`next(1)`, `error(timeout)`, `completed`), or `subscribed` / `disposed`.
    public let event: String
    /// The prefix passed to `log`.
    public let prefix: String
    /// The logged signal's name (``Signal/description``): `login.valid.map`.
    public let pipeline: String
    /// The subscription's number (counted per `log` stage, from 1), to tell subscriptions apart.
    public let subscription: Int
    /// The thread it happened on: `main`, or its name or number.
    public let thread: String
    /// Whether it happened on the main queue (``QueueScheduler/main``).
    public let isMainQueue: Bool
    /// The label of the ``QueueScheduler`` it ran on (its name; the main queue's label on `.main`), if any.
    public let queue: String?

    /// The line the default sink prints: `[prefix] pipeline #1 next(1) · thread main`, followed by
    /// ` · queue NAME` on a ``QueueScheduler``'s queue.
    public var description: String {
        let head = prefix.isEmpty ? pipeline : "[\(prefix)] \(pipeline)"
        let queueName = queue.map { " · queue \($0)" } ?? ""
        return "\(head) #\(subscription) \(event) · thread \(thread)\(queueName)"
    }
}

extension SignalConvertible {
    /// Reports the chosen events as they pass — with the pipeline's name, the subscription, the thread and
    /// the queue — to `sink`, and forwards every event unchanged (RAC's `logAll`, ReactiveSwift's
    /// `logEvents`). `sink` is any closure; by default it prints each ``LogEntry``.
    ///
    /// The sink runs on the thread of the event, before the event goes on. To send the entries to
    /// swift-log, pass a closure that calls your `Logger` (see <doc:DebuggingPipelines>).
    ///
    /// ```swift
    /// let username = Subject<String, Never>()
    /// username.named("login.username").log(events: [.next, .subscribed, .disposed]).subscribe()
    /// // login.username #1 subscribed · thread … — main or the thread's name, then the QueueScheduler's queue
    /// username.send("ann")
    /// // login.username #1 next(ann) · thread …
    /// // login.username #1 disposed · thread … — when username goes away, at the end of the scope
    /// ```
    public func log(
        _ prefix: String = "", events: LoggedEvents,
        to sink: @escaping @Sendable (LogEntry) -> Void = { print($0) }
    ) -> Signal<Value, Failure> {
        let upstream = signal
        let pipeline = upstream.description
        let counter = StateBox(0)
        func entry(_ kind: LoggedEvents, _ event: String, _ subscription: Int) -> LogEntry {
            let context = DebugThreadContext.current
            return LogEntry(
                kind: kind, event: event, prefix: prefix, pipeline: pipeline, subscription: subscription,
                thread: context.name, isMainQueue: isOnMainQueue(), queue: currentQueueLabel())
        }
        return Signal(unsafeStart: { downstream, lifetime in
            counter.value += 1
            let subscription = counter.value
            if events.contains(.subscribed) { sink(entry(.subscribed, "subscribed", subscription)) }
            if events.contains(.disposed) {
                nonisolated(unsafe) let report = { sink(entry(.disposed, "disposed", subscription)) }
                lifetime.add { report() }
            }
            upstream.start(
                Sink { event in
                    let kind: LoggedEvents
                    switch event {
                    case .next: kind = .next
                    case .error: kind = .error
                    case .completed: kind = .completed
                    }
                    if events.contains(kind) { sink(entry(kind, DebugTrace.describe(event), subscription)) }
                    downstream.send(event)
                }, in: lifetime)
        })
    }
}

/// The label of the ``QueueScheduler`` the caller runs on, if any.
func currentQueueLabel() -> String? {
    DispatchQueue.getSpecific(key: schedulerNameKey)
}
