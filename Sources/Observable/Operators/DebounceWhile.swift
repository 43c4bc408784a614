extension SignalConvertible where Value: Sendable {
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
