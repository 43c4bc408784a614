import Observable
import TetherEngine

/// A signal built from a marble diagram on a `TestScheduler` that also logs its subscriptions.
///
/// Use it wherever a signal is expected (it is a `SignalConvertible`); check ``subscriptions`` to
/// assert when the code under test subscribed and when it let go — for example that a stale search
/// was cancelled:
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// let search = try scheduler.cold("--r|")
/// let cancel = try scheduler.cold("-c")
/// let recorder = search.signal.take(until: cancel).record(on: scheduler)
/// scheduler.run()
/// XCTAssertEqual(search.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(1))])
/// ```
public final class TestSignal<Value, Failure: Error>: SignalConvertible {
    /// The signal; each subscription is logged in ``subscriptions``.
    public let signal: Signal<Value, Failure>
    private let log: SubscriptionLog

    init(_ source: Signal<Value, Failure>, keepingAlive owner: (any Sendable)?, scheduler: TestScheduler) {
        let log = SubscriptionLog()
        self.log = log
        signal = Signal(unsafeStart: { sink, lifetime in
            let index = log.subscribed(at: scheduler.now)
            // A live subscription keeps the hot subject alive; the scheduled events keep it too.
            lifetime.add(
                AnyDisposable { [scheduler] in
                    withExtendedLifetime(owner) {}
                    log.ended(index, at: scheduler.now)
                })
            source.start(sink, in: lifetime)
        })
    }

    /// Every subscription so far, in order: when it started and when it ended (by a terminal event or
    /// by disposal), or `nil` while it lives.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let search = try scheduler.cold("---r|")
    /// let recorder = search.record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(search.subscriptions.map(\.ended), [.seconds(4)])
    /// ```
    public var subscriptions: [TestSubscription] { log.snapshot() }
}

// Safety: the fields are immutable; the subscription log synchronizes itself (a lock).
extension TestSignal: @unchecked Sendable where Value: Sendable {}

/// One subscription to a ``TestSignal``: the scheduler times at which it started and ended.
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// let signal = try scheduler.cold("---|")
/// scheduler.advance(by: .seconds(1))
/// let recorder = signal.record(on: scheduler)
/// scheduler.run()
/// XCTAssertEqual(signal.subscriptions, [TestSubscription(subscribed: .seconds(1), ended: .seconds(4))])
/// ```
public struct TestSubscription: Hashable, Sendable, CustomStringConvertible {
    /// When the subscription started.
    public var subscribed: Duration
    /// When it ended (terminal event or disposal); `nil` while it is alive.
    public var ended: Duration?

    /// Creates a record (for expected values in assertions).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let expected = TestSubscription(subscribed: .zero, ended: nil)
    /// ```
    public init(subscribed: Duration, ended: Duration?) {
        self.subscribed = subscribed
        self.ended = ended
    }

    /// `subscribed @ 1.0 seconds, ended @ 3.0 seconds` or `… still alive`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let signal = try scheduler.cold("-|")
    /// let recorder = signal.record(on: scheduler)
    /// print(signal.subscriptions[0])   // subscribed @ 0.0 seconds, still alive
    /// ```
    public var description: String {
        "subscribed @ \(subscribed), " + (ended.map { "ended @ \($0)" } ?? "still alive")
    }
}

final class SubscriptionLog: @unchecked Sendable {
    // Safety: `entries` is only accessed under `lock`.
    private let lock = Lock()
    private var entries: [TestSubscription] = []

    func subscribed(at time: Duration) -> Int {
        lock.withLock {
            entries.append(TestSubscription(subscribed: time, ended: nil))
            return entries.count - 1
        }
    }

    func ended(_ index: Int, at time: Duration) {
        lock.withLock {
            if entries[index].ended == nil { entries[index].ended = time }
        }
    }

    func snapshot() -> [TestSubscription] {
        lock.withLock { entries }
    }
}

extension TestScheduler {
    /// A hot signal that sends the diagram's events at their frames from now, to whoever is
    /// subscribed then (a `Subject` driven by this scheduler). See ``Marbles`` for the notation.
    ///
    /// `^` marks now (frame 0); events left of it are sent at once, before anyone can subscribe.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum FormError: Error { case closed }
    /// let scheduler = TestScheduler()
    /// let password = try scheduler.hot("-a--b-#", values: ["a": "pw", "b": "secret"], error: FormError.closed)
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public func hot<Value, Failure: Error>(
        _ marbles: String,
        values: [Character: Value],
        error: Failure,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<Value, Failure> {
        try makeHot(
            MarbleDiagram(marbles, symbol: { values[$0] }, error: error, allowsSubscriptionPoint: true),
            frame: frame)
    }

    /// A hot signal that cannot fail, its values looked up in `values`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let valid = try scheduler.hot("-t-f-t", values: ["t": true, "f": false])
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `#`).
    public func hot<Value>(
        _ marbles: String,
        values: [Character: Value],
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<Value, Never> {
        try makeHot(
            MarbleDiagram(marbles, symbol: { values[$0] }, error: nil, allowsSubscriptionPoint: true),
            frame: frame)
    }

    /// A hot signal of one-letter strings: each value character is sent as itself.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let text = try scheduler.hot("-a-b--c|")   // sends "a", "b", "c"
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `#`).
    public func hot(
        _ marbles: String,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<String, Never> {
        try makeHot(
            MarbleDiagram(marbles, symbol: { String($0) }, error: nil, allowsSubscriptionPoint: true),
            frame: frame)
    }

    /// A hot signal of one-letter strings that fails with `error` at `#`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum IOError: Error { case closed }
    /// let scheduler = TestScheduler()
    /// let lines = try scheduler.hot("-a-#", error: IOError.closed)
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public func hot<Failure: Error>(
        _ marbles: String,
        error: Failure,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<String, Failure> {
        try makeHot(
            MarbleDiagram(marbles, symbol: { String($0) }, error: error, allowsSubscriptionPoint: true),
            frame: frame)
    }

    /// A cold signal: each subscription receives the diagram's events at their frames counted from
    /// the moment it subscribed (frame-0 events on the scheduler's next advance, or within the current
    /// one). Disposing a subscription cancels its pending events. See ``Marbles`` for the notation.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum SearchError: Error { case offline }
    /// let scheduler = TestScheduler()
    /// let search = try scheduler.cold("--r|", values: ["r": ["Swift", "Linux"]], error: SearchError.offline)
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `^`).
    public func cold<Value, Failure: Error>(
        _ marbles: String,
        values: [Character: Value],
        error: Failure,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<Value, Failure> {
        try makeCold(
            MarbleDiagram(marbles, symbol: { values[$0] }, error: error, allowsSubscriptionPoint: false),
            frame: frame)
    }

    /// A cold signal that cannot fail, its values looked up in `values`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let login = try scheduler.cold("--s|", values: ["s": true])
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `#` or `^`).
    public func cold<Value>(
        _ marbles: String,
        values: [Character: Value],
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<Value, Never> {
        try makeCold(
            MarbleDiagram(marbles, symbol: { values[$0] }, error: nil, allowsSubscriptionPoint: false),
            frame: frame)
    }

    /// A cold signal of one-letter strings.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let letters = try scheduler.cold("a-b|")
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `#` or `^`).
    public func cold(
        _ marbles: String,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<String, Never> {
        try makeCold(
            MarbleDiagram(marbles, symbol: { String($0) }, error: nil, allowsSubscriptionPoint: false),
            frame: frame)
    }

    /// A cold signal of one-letter strings that fails with `error` at `#`.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum NetworkError: Error { case timedOut }
    /// let scheduler = TestScheduler()
    /// let flaky = try scheduler.cold("a-#", error: NetworkError.timedOut)
    /// ```
    /// - Throws: ``MarbleError`` for a malformed diagram (or a `^`).
    public func cold<Failure: Error>(
        _ marbles: String,
        error: Failure,
        frame: Duration = Marbles.defaultFrame
    ) throws(MarbleError) -> TestSignal<String, Failure> {
        try makeCold(
            MarbleDiagram(marbles, symbol: { String($0) }, error: error, allowsSubscriptionPoint: false),
            frame: frame)
    }

    private func makeHot<Value, Failure: Error>(
        _ diagram: MarbleDiagram<Value, Failure>, frame: Duration
    ) -> TestSignal<Value, Failure> {
        let subject = Subject<Value, Failure>()
        // The subject and its events are handed to the thread that advances the scheduler; tests own both.
        let target = UncheckedSendable(subject)
        for (number, event) in diagram.events {
            if number < 0 {
                subject.send(event: event)
            } else {
                let boxed = UncheckedSendable(event)
                schedule(after: frame * number) { target.value.send(event: boxed.value) }
            }
        }
        return TestSignal(subject.signal, keepingAlive: target, scheduler: self)
    }

    private func makeCold<Value, Failure: Error>(
        _ diagram: MarbleDiagram<Value, Failure>, frame: Duration
    ) -> TestSignal<Value, Failure> {
        // Handed to the thread that advances the scheduler; tests own both.
        let timeline = UncheckedSendable(diagram.events.map { (delay: frame * $0.frame, event: $0.event) })
        let source = Signal<Value, Failure> { observer in
            let pending = CompositeDisposable()
            for index in timeline.value.indices {
                pending.add(
                    self.schedule(after: timeline.value[index].delay) {
                        observer.send(event: timeline.value[index].event)
                    })
            }
            return pending
        }
        return TestSignal(source, keepingAlive: nil, scheduler: self)
    }
}
