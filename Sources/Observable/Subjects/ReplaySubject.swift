import TetherEngine

/// A subject that replays past values to new subscribers (RAC's `RACReplaySubject`).
///
/// It keeps the last `capacity` values (all of them by default) and, once it has terminated, its
/// terminal event: a late subscriber receives the buffered values, then the terminal event. The replay
/// is serialized with concurrent sends, so no value is lost or duplicated for a subscriber that joins
/// while others send.
///
/// ```swift
/// let log = ReplaySubject<String, Never>(capacity: 2)
/// log.send("a"); log.send("b"); log.send("c")
/// log.subscribe(next: { print($0) })   // b, c
/// ```
public final class ReplaySubject<Value, Failure: Error>: SignalConvertible, ObserverProtocol {
    @usableFromInline let core: SubjectCore<Value, Failure>

    deinit {
        core.shutdown()
    }

    /// Creates a replay subject keeping at most `capacity` values (`Int.max`: unlimited, RAC's default;
    /// a negative capacity counts as zero: nothing is replayed but the terminal event).
    ///
    /// ```swift
    /// let last3 = ReplaySubject<Int, Never>(capacity: 3)
    /// ```
    public init(capacity: Int = .max) {
        core = SubjectCore(capacity: max(0, capacity))
    }

    /// Sends `event` to every current subscriber and records values for later ones.
    ///
    /// ```swift
    /// let replay = ReplaySubject<Int, Never>(capacity: 1)
    /// replay.send(event: .next(1))
    /// ```
    @inlinable
    public func send(event: Event<Value, Failure>) {
        core.send(event)
    }

    /// A signal whose subscriptions first receive the buffered values (and the terminal event, if
    /// any), then what this subject sends.
    ///
    /// ```swift
    /// let replay = ReplaySubject<Int, Never>(capacity: 1)
    /// replay.signal.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> {
        core.subjectSignal
    }
}

// Checked: the subject's only stored property is its core, which synchronizes everything (the engine's
// gate); the condition keeps non-`Sendable` values from crossing threads through it.
extension ReplaySubject: Sendable where Value: Sendable {}

extension ReplaySubject: SubjectFront {}

extension ReplaySubject: DeliversOnAnyThread {}
