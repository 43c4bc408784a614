import Observable

/// An event together with the scheduler time at which it happened, as a ``TestRecorder`` records it.
///
/// Equatable when values and failures are, with a readable description, so that
/// `XCTAssertEqual(recorder.events, [...])` prints a clear timeline when it fails.
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// let recorder = try scheduler.cold("-a|").record(on: scheduler)
/// scheduler.run()
/// XCTAssertEqual(recorder.events, [.next("a", at: .seconds(1)), .completed(at: .seconds(2))])
/// print(recorder.events[0])   // next(a) @ 1.0 seconds
/// ```
public struct TimedEvent<Value, Failure: Error> {
    /// When the event happened, on the recording scheduler's clock.
    public var time: Duration
    /// What happened.
    public var event: Event<Value, Failure>

    /// Creates a timed event.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let first = TimedEvent<Int, Never>(.next(1), at: .seconds(1))
    /// ```
    public init(_ event: Event<Value, Failure>, at time: Duration) {
        self.event = event
        self.time = time
    }

    /// A value sent at `time`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let expected: [TimedEvent<Int, Never>] = [.next(1, at: .seconds(1))]
    /// ```
    public static func next(_ value: Value, at time: Duration) -> TimedEvent {
        TimedEvent(.next(value), at: time)
    }

    /// A failure sent at `time`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum MyError: Error { case boom }
    /// let expected: [TimedEvent<Int, MyError>] = [.error(.boom, at: .seconds(2))]
    /// ```
    public static func error(_ failure: Failure, at time: Duration) -> TimedEvent {
        TimedEvent(.error(failure), at: time)
    }

    /// Completion at `time`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let expected: [TimedEvent<Int, Never>] = [.completed(at: .seconds(3))]
    /// ```
    public static func completed(at time: Duration) -> TimedEvent {
        TimedEvent(.completed, at: time)
    }
}

extension TimedEvent: Sendable where Value: Sendable {}

extension TimedEvent: Equatable where Value: Equatable, Failure: Equatable {}

extension TimedEvent: Hashable where Value: Hashable, Failure: Hashable {}

extension TimedEvent: CustomStringConvertible {
    /// `next(a) @ 1.0 seconds`, `completed @ 3.0 seconds`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// print(TimedEvent<Int, Never>.completed(at: .seconds(3)))   // completed @ 3.0 seconds
    /// ```
    public var description: String {
        "\(event) @ \(time)"
    }
}
