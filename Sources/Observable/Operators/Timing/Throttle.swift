import TetherEngine

extension SignalConvertible where Value: Sendable {
    /// Limits the rate of values: the first value passes at once and opens a window of `interval`;
    /// at the end of the window the first (or, with `latest: true`, the latest) value received during
    /// it is sent and opens the next window; a window in which nothing arrived closes, and the next
    /// value passes at once again (Combine's `throttle(for:scheduler:latest:)`; not RAC's `throttle:`,
    /// which is ``debounce(_:on:)``).
    ///
    /// So at most one value is sent per `interval`. A value that opens a window is sent on the thread
    /// that sent it; values sent at the end of a window are sent on `scheduler` — add
    /// ``deliver(on:)`` to get every value there. When the source completes while a value waits, that
    /// value is sent at the end of the window, followed by the completion (as Combine and ReactiveX
    /// do: nothing is lost and the rate holds). An error is forwarded at once and drops the waiting
    /// value (as RAC's time operators do; Combine would hold it to the window's end). Disposing cancels
    /// the timer. Values cross to the scheduler's thread, hence `Value: Sendable`. A negative interval
    /// counts as zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let scrolls = Subject<Int, Never>()
    /// scrolls.throttle(.seconds(1), latest: true, on: scheduler).subscribe(next: { print($0) })
    /// scrolls.send(1)                       // prints 1 — at once
    /// scrolls.send(2); scrolls.send(3)
    /// scheduler.advance(by: .seconds(1))    // prints 3 — the latest of the window
    /// ```
    /// Marble (window of three dashes), `latest: true`: `-123-------4-|` → `-1--3------4-|`;
    /// `latest: false`: `-123-------4-|` → `-1--2------4-|`
    @inlinable
    public func throttle<S: Scheduler>(_ interval: Duration, latest: Bool, on scheduler: S)
        -> Signal<Value, Failure>
    {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal.timerDriven(by: upstream, on: scheduler) { output, timer in
            var state = ThrottleState<Value>(latest: latest)
            // Set when the source went away without a terminal event: end like a completion, but quietly.
            var endsQuietly = false
            var sourceCompleted = false
            return { input in
                let action: ThrottleState<Value>.Action
                switch input {
                case .upstream(.next(let value)):
                    action = state.receive(value)
                case .upstream(.error(let failure)):
                    state.fail()
                    output.finish(.error(failure))
                    return
                case .upstream(.completed):
                    sourceCompleted = true
                    action = state.complete()
                case .timerFired:
                    action = state.windowEnded()
                case .sourceGone:
                    // After a completion (which may wait for the window's end), the source's end is no news.
                    if sourceCompleted { return }
                    endsQuietly = true
                    action = state.complete()
                }
                switch action {
                case .none:
                    break
                case .send(let value):
                    timer.arm(after: interval)  // the window opened by this value
                    output.send(value)
                case .complete:
                    if endsQuietly { output.end() } else { output.finish(.completed) }
                case .sendAndComplete(let value):
                    output.send(value)
                    if endsQuietly { output.end() } else { output.finish(.completed) }
                }
            }
        }
    }
}

/// The state of one ``SignalConvertible/throttle(_:latest:on:)`` subscription, as a value.
///
/// - `idle`: no window is open; the next value passes at once and opens one.
/// - `open`: a window is open; `pending` is the value to send when it ends, if any.
/// - `closing`: the source completed while `pending` waited; it goes out at the window's end, then the
///   completion.
/// - `finished`: the subscription ended.
@usableFromInline
struct ThrottleState<Value> {
    @usableFromInline enum State {
        case idle
        case open(pending: Value?)
        case closing(pending: Value)
        case finished
    }

    /// What the subscription must do after an input.
    @usableFromInline enum Action {
        case none
        /// Send the value and open a new window.
        case send(Value)
        /// Send the completion.
        case complete
        /// Send the value, then the completion.
        case sendAndComplete(Value)
    }

    @usableFromInline var state = State.idle
    @usableFromInline let latest: Bool

    @inlinable
    init(latest: Bool) {
        self.latest = latest
    }

    @inlinable
    mutating func receive(_ value: Value) -> Action {
        switch state {
        case .idle:
            state = .open(pending: nil)
            return .send(value)
        case .open(let pending):
            if latest || pending == nil { state = .open(pending: value) }
            return .none
        case .closing, .finished:
            return .none
        }
    }

    @inlinable
    mutating func windowEnded() -> Action {
        switch state {
        case .open(pending: let pending?):
            state = .open(pending: nil)
            return .send(pending)
        case .open(pending: nil):
            state = .idle
            return .none
        case .closing(let pending):
            state = .finished
            return .sendAndComplete(pending)
        case .idle, .finished:
            return .none
        }
    }

    @inlinable
    mutating func complete() -> Action {
        switch state {
        case .open(pending: let pending?):
            state = .closing(pending: pending)
            return .none
        case .idle, .open(pending: nil):
            state = .finished
            return .complete
        case .closing, .finished:
            return .none
        }
    }

    @inlinable
    mutating func fail() {
        state = .finished
    }
}

extension ThrottleState.Action: Equatable where Value: Equatable {}

extension SignalConvertible where Value: Sendable {
    /// RAC's `throttle:` is a debounce, not rate limiting: this spelling does not compile, and the message
    /// names the two operators to choose from.
    ///
    /// A RAC user's `throttle(.milliseconds(500), on: scheduler)` means "send the latest value once
    /// the input has been quiet for half a second" (the live search). In Tether that is
    /// ``debounce(_:on:)``; ``throttle(_:latest:on:)`` limits the rate, as Combine's `throttle` does, and
    /// must be asked for with its `latest:` argument.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let query = Subject<String, Never>()
    /// query.debounce(.milliseconds(500), on: scheduler)                 // RAC's throttle:
    /// query.throttle(.milliseconds(500), latest: true, on: scheduler)   // rate limiting
    /// ```
    @available(
        *, unavailable,
        message:
            "RAC's throttle: is a debounce: use debounce(_:on:); for rate limiting (Combine's throttle) write throttle(_:latest:on:) with latest:"
    )
    public func throttle<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<Value, Failure> {
        fatalError("unavailable")
    }
}
