import Observable
import TetherEngine

/// Records every event a signal sends, with the time on a scheduler's clock, for assertions.
///
/// Subscribe with ``Observable/SignalConvertible/record(on:frame:)``; advance the `TestScheduler`; then compare
/// the ``events`` (exact times), the ``values``, or the ``marbles`` string (a diagram when one states the
/// times exactly, else a listing of the events: see ``Marbles/render(_:frame:start:symbol:)``):
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// let clicks = try scheduler.hot("-a-b--c|")
/// let recorder = clicks.map { $0.uppercased() }.record(on: scheduler)
/// scheduler.run()
/// XCTAssertEqual(recorder.marbles, "-A-B--C|")
/// XCTAssertEqual(recorder.values, ["A", "B", "C"])
/// XCTAssertEqual(recorder.events.last, .completed(at: .seconds(7)))
/// ```
///
/// A failed `XCTAssertEqual(recorder.events, expected)` prints both timelines
/// (`[next(A) @ 1.0 seconds, …]`). The recorder is thread-safe: events may arrive from any thread.
/// Its subscription lives until the signal terminates, ``dispose()`` is called, or the recorder is
/// released.
public final class TestRecorder<Value, Failure: Error> {
    private let storage: RecorderStorage<Value, Failure>
    private let subscription: any Disposable
    /// The scheduler time at which recording started: frame 0 of ``marbles``.
    public let start: Duration
    /// The duration of one `-` in ``marbles``.
    public let frame: Duration

    /// Subscribes to `source` and records its events, timestamped with `scheduler.now`
    /// (or `.zero` for every event when `scheduler` is `nil`).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let enabled = BehaviorSubject<Bool, Never>(value: false)
    /// let recorder = TestRecorder(enabled, on: scheduler)
    /// ```
    public init<Source: SignalConvertible>(
        _ source: Source,
        on scheduler: (any Scheduler)? = nil,
        frame: Duration = Marbles.defaultFrame
    ) where Source.Value == Value, Source.Failure == Failure {
        let storage = RecorderStorage<Value, Failure>(clock: scheduler)
        self.storage = storage
        self.frame = frame
        self.start = scheduler?.now ?? .zero
        subscription = source.subscribeEvents { event in storage.append(event) }
    }

    deinit {
        subscription.dispose()
    }

    /// Every event so far, in order, with its time.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let recorder = try scheduler.hot("-a|", values: ["a": 1]).record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(recorder.events, [.next(1, at: .seconds(1)), .completed(at: .seconds(2))])
    /// ```
    public var events: [TimedEvent<Value, Failure>] { storage.snapshot() }

    /// The values received so far.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(Signal<Bool, Never>(values: [false, true, false]))
    /// XCTAssertEqual(recorder.values, [false, true, false])
    /// ```
    public var values: [Value] { events.compactMap(\.event.value) }

    /// Whether the signal completed.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(Signal<Int, Never>(values: [1, 2]))
    /// XCTAssertTrue(recorder.isCompleted)
    /// ```
    public var isCompleted: Bool {
        if case .completed? = events.last?.event { return true }
        return false
    }

    /// The failure the signal sent, if any.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum LoginError: Error { case disabled }
    /// let recorder = TestRecorder(Signal<Int, LoginError>(error: .disabled))
    /// XCTAssertEqual(recorder.failure, .disabled)
    /// ```
    public var failure: Failure? { events.last?.event.error }

    /// Whether the signal sent a terminal event (completion or failure).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(Subject<Int, Never>())
    /// XCTAssertFalse(recorder.isTerminated)
    /// ```
    public var isTerminated: Bool { events.last?.event.isTerminal ?? false }

    /// Whether the recording subscription has ended (terminated or disposed).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(Subject<Int, Never>())
    /// recorder.dispose()
    /// XCTAssertTrue(recorder.isDisposed)
    /// ```
    public var isDisposed: Bool { subscription.isDisposed }

    /// Stops recording (disposes the subscription). Recorded events stay available.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(Subject<Int, Never>())
    /// recorder.dispose()
    /// ```
    public func dispose() {
        subscription.dispose()
    }

    /// The recording as a marble string (see ``Marbles``): each value by its description, `|` for
    /// completion, `#` for a failure; one character per ``frame`` from ``start``, ending at the last event.
    ///
    /// Use one-character values (or ``marbles(values:)``) so the string lines up with the input diagrams.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let recorder = try scheduler.hot("---b---c|").record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(recorder.marbles, "---b---c|")
    /// ```
    public var marbles: String {
        marbles { String(describing: $0) }
    }

    /// The recording as a marble string, each value written as `symbol(value)`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let recorder = TestRecorder(BehaviorSubject<Bool, Never>(value: false))
    /// XCTAssertEqual(recorder.marbles { $0 ? "T" : "F" }, "F")
    /// ```
    public func marbles(_ symbol: (Value) -> String) -> String {
        Marbles.render(events, frame: frame, start: start, symbol: symbol)
    }

    /// The recording as a marble string, each value written as its key in `values` — the same
    /// dictionary that built the input. A value that has no key is written `?(value)`, which no diagram
    /// can hold: the recording is then listed event by event (see ``Marbles/render(_:frame:start:symbol:)``),
    /// so two different unknown values never look the same, and a comparison with a diagram fails.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum Colour { case white, yellow }
    /// let scheduler = TestScheduler()
    /// let colours: [Character: Colour] = ["w": .white, "y": .yellow]
    /// let recorder = try scheduler.hot("y-w--y", values: colours).record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(recorder.marbles(values: colours), "y-w--y")
    /// ```
    public func marbles(values: [Character: Value]) -> String where Value: Equatable {
        marbles { value in
            values.first(where: { $0.value == value }).map { String($0.key) } ?? "?(\(value))"
        }
    }
}

// Safety: the fields are immutable; the recorded events live in the storage, which synchronizes itself.
extension TestRecorder: @unchecked Sendable where Value: Sendable {}

extension TestRecorder: CustomStringConvertible {
    /// The marble string and the exact events, for failure messages.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let recorder = try scheduler.cold("-A-B|").record(on: scheduler)
    /// scheduler.run()
    /// print(recorder)   // "-A-B|" [next(A) @ 1.0 seconds, next(B) @ 3.0 seconds, completed @ 4.0 seconds]
    /// ```
    public var description: String {
        "\"\(marbles)\" \(events)"
    }
}

extension SignalConvertible {
    /// Subscribes a ``TestRecorder`` that timestamps events with `scheduler.now`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let results = try scheduler.cold("---r--")
    /// let recorder = results.record(on: scheduler)
    /// scheduler.advance(by: .seconds(5))
    /// XCTAssertEqual(recorder.marbles, "---r")   // a recording ends at its last event
    /// ```
    public func record(
        on scheduler: (any Scheduler)? = nil,
        frame: Duration = Marbles.defaultFrame
    ) -> TestRecorder<Value, Failure> {
        TestRecorder(self, on: scheduler, frame: frame)
    }
}

/// The recorder's event list; the subscription's sink holds it, not the recorder, so that releasing the
/// recorder ends the subscription.
final class RecorderStorage<Value, Failure: Error>: @unchecked Sendable {
    // Safety: `recorded` is only accessed under `lock`; `clock` is immutable and Sendable.
    private let lock = Lock()
    private var recorded: [TimedEvent<Value, Failure>] = []
    private let clock: (any Scheduler)?

    init(clock: (any Scheduler)?) {
        self.clock = clock
    }

    func append(_ event: Event<Value, Failure>) {
        let time = clock?.now ?? .zero
        lock.withLock { recorded.append(TimedEvent(event, at: time)) }
    }

    func snapshot() -> [TimedEvent<Value, Failure>] {
        lock.withLock { recorded }
    }
}
