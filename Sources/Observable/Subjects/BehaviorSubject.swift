/// A subject with a current value, sent to each new subscriber first (RAC's `RACBehaviorSubject`).
///
/// As in RAC, it is a replay subject of capacity one that starts with a value: after it has terminated,
/// a late subscriber receives the last value, then the terminal event.
///
/// ```swift
/// let name = BehaviorSubject<String, Never>(value: "Ann")
/// name.subscribe(next: { print($0) })   // Ann
/// name.send("Bob")                      // Bob
/// name.value                            // "Bob"
/// ```
public final class BehaviorSubject<Value, Failure: Error>: SignalConvertible, ObserverProtocol,
    @unchecked Sendable
{
    @usableFromInline let core: SubjectCore<Value, Failure>

    deinit {
        core.shutdown()
    }
    @usableFromInline let latest: LatestValue<Value>

    /// Creates a behavior subject holding `value`.
    ///
    /// ```swift
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// ```
    public init(value: Value) {
        let latest = LatestValue(value)
        self.latest = latest
        core = SubjectCore(capacity: 1, initial: [value], onValue: { latest.set($0) })
    }

    /// The latest value sent (or the initial one). Thread-safe.
    ///
    /// ```swift
    /// if enabled.value { … }
    /// ```
    public var value: Value {
        latest.get()
    }

    /// Sends `event` to every current subscriber; a value becomes the current value.
    ///
    /// ```swift
    /// enabled.send(true)
    /// ```
    @inlinable
    public func send(event: Event<Value, Failure>) {
        core.send(event)
    }

    /// A signal whose subscriptions receive the current value first, then what this subject sends.
    ///
    /// ```swift
    /// enabled.signal.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> { core.signal }
}

/// A value behind a lock, readable from any thread.
@usableFromInline
final class LatestValue<Value>: @unchecked Sendable {
    // Safety: `value` is only accessed under `lock`.
    @usableFromInline let lock = SpinLock()
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }

    @inlinable
    func get() -> Value {
        lock.withLock { value }
    }

    @inlinable
    func set(_ newValue: Value) {
        lock.withLock { value = newValue }
    }
}
