import TetherEngine

/// A hot source you send into; every current subscriber receives what is sent (RAC's `RACSubject`).
///
/// Sending is thread-safe: sends from several threads are serialized, and a send from inside one of
/// the subject's own observers is queued and delivered after the current event — so a contended or
/// reentrant `send` may return before its value is delivered. When 4,096 values already wait, a sender on
/// another thread waits (parked) for the delivering thread to take them: the backlog stays bounded and
/// nothing is dropped (<doc:ThreadingAndLifetimes>). Subscribers see only what is sent after
/// they subscribe. After a terminal event, further sends are ignored and a late subscriber receives
/// that terminal event at once (RAC's `RACSubject` would leave it silently waiting).
///
/// ```swift
/// let clicks = Subject<Int, Never>()
/// clicks.map { "click \($0)" }.subscribe(next: { print($0) })
/// clicks.send(1)          // prints click 1
/// clicks.sendCompleted()
/// ```
public final class Subject<Value, Failure: Error>: SignalConvertible, ObserverProtocol {
    @usableFromInline let core: SubjectCore<Value, Failure>

    deinit {
        core.shutdown()
    }

    /// Creates a subject with no subscribers.
    ///
    /// ```swift
    /// let events = Subject<String, Never>()
    /// ```
    public init() {
        core = SubjectCore(capacity: 0)
    }

    /// Sends `event` to every current subscriber.
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// subject.send(event: .completed)
    /// ```
    @inlinable
    public func send(event: Event<Value, Failure>) {
        core.send(event)
    }

    /// A signal whose subscriptions receive what this subject sends from then on.
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// subject.signal.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> {
        core.subjectSignal
    }

    /// How many operations wait in the queue for the delivering thread (for tests of the bound).
    package var queuedCount: Int { core.queuedCount }

    /// How many operations may wait before a sender on another thread waits.
    package static var backlogLimit: Int { SubjectCore<Value, Failure>.backlogLimit }
}

// Checked: the subject's only stored property is its core, which synchronizes everything (the engine's
// gate); the condition keeps non-`Sendable` values from crossing threads through it.
extension Subject: Sendable where Value: Sendable {}

extension Subject: SubjectFront {}

extension Subject: DeliversOnAnyThread {}
