import TetherEngine

/// A subject with a current value, sent to each new subscriber first (RAC's `RACBehaviorSubject`).
///
/// As in RAC, it is a replay subject of capacity one that starts with a value: after it has terminated,
/// a late subscriber receives the last value, then the terminal event.
///
/// ```swift
/// let name = BehaviorSubject<String, Never>(value: "Ann")
/// name.subscribe(next: { print($0) })   // Ann
/// name.send("Bob")                      // Bob
/// print(name.value)                     // Bob
/// ```
public final class BehaviorSubject<Value, Failure: Error>: SignalConvertible, ObserverProtocol {
    @usableFromInline let core: SubjectCore<Value, Failure>

    deinit {
        core.shutdown()
    }
    /// Creates a behavior subject holding `value`.
    ///
    /// ```swift
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// ```
    public init(value: Value) {
        core = SubjectCore(capacity: 1, initial: [value], ordered: true)
    }

    /// The latest value sent (or the initial one). Thread-safe.
    ///
    /// A value becomes current when `send` takes its place in the subject's order — even if its delivery
    /// is still queued behind another thread's delivery, or behind the callback that sent it — so a read
    /// right after `send` returns sees that value or a later one.
    ///
    /// ```swift
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// if enabled.value { /* … */ }
    /// ```
    public var value: Value {
        core.latestValue
    }

    /// Sends `event` to every current subscriber; a value becomes the current value.
    ///
    /// ```swift
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// enabled.send(true)
    /// ```
    @inlinable
    public func send(event: Event<Value, Failure>) {
        core.send(event)
    }

    /// A signal whose subscriptions receive the current value first, then what this subject sends.
    ///
    /// ```swift
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// enabled.signal.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> {
        core.subjectSignal
    }
}

// Checked: the subject's only stored property is its core, which synchronizes everything (the engine's
// gate); the condition keeps non-`Sendable` values from crossing threads through it.
extension BehaviorSubject: Sendable where Value: Sendable {}

extension BehaviorSubject: SubjectFront {}

extension BehaviorSubject: DeliversOnAnyThread {}
