import TetherEngine

extension SignalConvertible where Value: Sendable {
    /// Sends a value only once `interval` has passed without a newer one (RAC's `throttle:`, which is
    /// a debounce; see ``throttle(_:latest:on:)`` for rate limiting).
    ///
    /// Each value restarts the quiet period; when it ends, the latest value is sent on `scheduler`.
    /// When the source completes, a value still waiting is sent at once, then the completion, as RAC
    /// does. An error is forwarded at once and the waiting value is dropped. Disposing cancels the
    /// timer. Values are delivered from the scheduler's thread, hence `Value: Sendable`. A negative
    /// interval counts as zero.
    ///
    /// ```swift
    /// let searchText = Subject<String, Never>()
    ///
    /// // The live search of the ReactiveCocoa tutorials: search only once typing paused for half a second.
    /// searchText
    ///     .filter { $0.count > 2 }
    ///     .debounce(.milliseconds(500), on: QueueScheduler.main)
    ///     .subscribe(next: { text in print("searching", text) })
    /// ```
    /// Marble (interval of three dashes): `-a-b------c-|` → `------b-----(c|)`;
    /// `-a-b|` → `----(b|)` (pending value flushed on completion)
    @inlinable
    public func debounce<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<Value, Failure> {
        debounce(interval, on: scheduler, while: { _ in true })
    }

    /// Like ``debounce(_:on:)``, but only the values for which `shouldWait` returns `true` wait for a
    /// quiet period of `interval`; the others are sent at once (RAC's `throttle:valuesPassingTest:`).
    ///
    /// A value that waits replaces any waiting one and restarts the quiet period; when it ends, the
    /// waiting value is sent on `scheduler`. A value that does not wait drops a waiting one, cancels its
    /// timer and is sent at once, on the thread that sent it. When the source completes, a value still
    /// waiting is sent at once, then the completion; an error is forwarded at once and drops the
    /// waiting value. `shouldWait` runs once per value, serialized with the timer's deliveries. Values
    /// cross to the scheduler's thread, hence `Value: Sendable`. A negative interval counts as zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let input = Subject<String, Never>()
    ///
    /// // Debounce typing, but let a submitted query ("…\n") through at once.
    /// input.debounce(.milliseconds(300), on: scheduler, while: { !$0.hasSuffix("\n") })
    ///     .subscribe(next: { print($0) })
    /// input.send("sw")
    /// input.send("swift\n")                         // prints swift — and its "\n", at once; "sw" is dropped
    /// input.send("tether")
    /// scheduler.advance(by: .milliseconds(300))     // prints tether
    /// ```
    /// Marble (interval of three dashes, `x` does not wait): `-a-b-x-c----|` → `-----x----c-|`
    @inlinable
    public func debounce<S: Scheduler>(
        _ interval: Duration, on scheduler: S, while shouldWait: @escaping @Sendable (Value) -> Bool
    ) -> Signal<Value, Failure> {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal.timerDriven(by: upstream, on: scheduler) { output, timer in
            var state = DebounceState<Value>()
            return { input in
                switch input {
                case .upstream(.next(let value)):
                    if shouldWait(value) {
                        state.receive(value)
                        timer.arm(after: interval)  // replacing the timer cancels the previous one
                    } else {
                        // RAC drops the waiting value and sends this one at once.
                        state.reset()
                        timer.cancel()
                        output.send(value)
                    }
                case .upstream(.error(let failure)):
                    state.reset()
                    output.finish(.error(failure))
                case .upstream(.completed):
                    if let value = state.takeWaiting() { output.send(value) }
                    output.finish(.completed)
                case .timerFired:
                    if let value = state.takeWaiting() { output.send(value) }
                case .sourceGone:
                    // The source went away without a terminal event: send what waits and end quietly.
                    if let value = state.takeWaiting() { output.send(value) }
                    output.end()
                }
            }
        }
    }
}

/// The state of one ``SignalConvertible/debounce(_:on:)`` subscription, as a value: whether a value
/// waits for its quiet period to end. (Which timer is current is the scaffold's business: a replaced
/// timer's firing never arrives.)
@usableFromInline
struct DebounceState<Value> {
    @usableFromInline var waiting: Value?

    @inlinable
    init() {}

    /// A new value replaces any waiting one; the caller arms the timer for it.
    @inlinable
    mutating func receive(_ value: Value) {
        waiting = value
    }

    /// The quiet period ended, or the source completed (the waiting value goes out before the
    /// completion): the value to send now, if one waits.
    @inlinable
    mutating func takeWaiting() -> Value? {
        defer { waiting = nil }
        return waiting
    }

    /// The source failed, or a value that does not wait arrived: the waiting value is dropped.
    @inlinable
    mutating func reset() {
        waiting = nil
    }
}
