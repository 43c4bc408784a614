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
    /// // Debounce typing, but let a submitted query ("…\n") through at once.
    /// input.debounce(.milliseconds(300), on: scheduler, while: { !$0.hasSuffix("\n") })
    ///     .subscribe(next: { print($0) })
    /// input.send("sw")
    /// input.send("swift\n")                         // "swift\n" at once; "sw" is dropped
    /// input.send("tether")
    /// scheduler.advance(by: .milliseconds(300))     // "tether"
    /// ```
    /// Marble (interval of three dashes, `x` does not wait): `-a-b-x-c----|` → `-----x----c-|`
    @inlinable
    public func debounce<S: Scheduler>(
        _ interval: Duration, on scheduler: S, while shouldWait: @escaping (Value) -> Bool
    ) -> Signal<Value, Failure> {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal(unsafeStart: { sink, lifetime in
            var state = DebounceState<Value>()
            let timer = SerialDisposable()
            // The handler arms timers that post into its own mailbox: a weak reference avoids a cycle.
            weak var weakMailbox: Mailbox<TimerInput<Value, Failure>>?
            let mailbox = Mailbox<TimerInput<Value, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .upstream(.next(let value)):
                    if shouldWait(value) {
                        let generation = state.receive(value)
                        if let mailbox = weakMailbox {
                            // Replacing the timer cancels the previous one.
                            timer.inner = scheduler.schedule(after: interval) { mailbox.post(.timer(generation)) }
                        }
                    } else {
                        // RAC drops the waiting value and sends this one at once.
                        state.reset()
                        timer.inner = nil
                        sink.send(.next(value))
                    }
                case .upstream(.error(let failure)):
                    state.reset()
                    sink.send(.error(failure))
                    lifetime.dispose()
                case .upstream(.completed):
                    if let value = state.finish() {
                        sink.send(.next(value))
                        if lifetime.isDisposed { return }
                    }
                    sink.send(.completed)
                    lifetime.dispose()
                case .timer(let generation):
                    if let value = state.timerFired(generation) {
                        sink.send(.next(value))
                    }
                case .sourceGone:
                    // The source went away without a terminal event: send what waits and end quietly.
                    if let value = state.finish() {
                        sink.send(.next(value))
                    }
                    lifetime.dispose()
                }
            }
            weakMailbox = mailbox
            lifetime.add(timer)
            let source = CompositeDisposable(partOf: lifetime)
            lifetime.add(source)
            // After a terminal event this arrives too late to matter (the subscription has ended).
            source.add { mailbox.post(.sourceGone) }
            upstream.start(Sink { event in mailbox.post(.upstream(event)) }, in: source)
        })
    }
}

/// What a timer-driven operator's subscription reacts to: an event from the source, or one of its
/// timers firing (identified by a generation, so a timer that fires just as it was replaced is ignored).
@usableFromInline
enum TimerInput<Value, Failure: Error> {
    case upstream(Event<Value, Failure>)
    case timer(UInt64)
    /// The source's subscription ended without a terminal event: nothing more can come.
    case sourceGone
}

/// The state of one ``SignalConvertible/debounce(_:on:)`` subscription, as a value.
///
/// - `idle`: nothing waits.
/// - `waiting`: a value waits for the quiet period armed with `generation` to end.
@usableFromInline
struct DebounceState<Value> {
    @usableFromInline enum State {
        case idle
        case waiting(Value, generation: UInt64)
    }

    @usableFromInline var state = State.idle
    @usableFromInline var generation: UInt64 = 0

    @inlinable
    init() {}

    /// A new value replaces any waiting one. Returns the generation of the timer to arm for it.
    @inlinable
    mutating func receive(_ value: Value) -> UInt64 {
        generation &+= 1
        state = .waiting(value, generation: generation)
        return generation
    }

    /// The timer armed with `generation` fired: the value to send, if it is still the waiting one.
    @inlinable
    mutating func timerFired(_ generation: UInt64) -> Value? {
        guard case .waiting(let value, let armed) = state, armed == generation else { return nil }
        state = .idle
        return value
    }

    /// The source completed: the value to send before the completion, if one waits.
    @inlinable
    mutating func finish() -> Value? {
        guard case .waiting(let value, _) = state else { return nil }
        state = .idle
        return value
    }

    /// The source failed: the waiting value is dropped.
    @inlinable
    mutating func reset() {
        state = .idle
    }
}
