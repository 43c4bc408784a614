extension SignalConvertible where Value: Sendable {
    /// Collects values into arrays, each sent `interval` after the first value it holds (RAC's
    /// `bufferWithTime:onScheduler:`).
    ///
    /// A value that arrives while nothing is buffered starts the timer; when it fires, every value
    /// received since is sent as one array, on `scheduler`, and the buffer is empty again. Nothing is
    /// sent for a period without values (no empty arrays). When the source completes, what is still
    /// buffered is sent at once, then the completion, as RAC does; an error is forwarded at once and
    /// drops the buffer. Disposing cancels the timer. Values cross to the scheduler's thread, hence
    /// `Value: Sendable`. A negative interval counts as zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let taps = Subject<Int, Never>()
    /// taps.buffer(.seconds(1), on: scheduler).subscribe(next: { print($0) })
    /// taps.send(1)
    /// taps.send(2)
    /// scheduler.advance(by: .seconds(1))   // [1, 2]
    /// taps.send(3)
    /// taps.sendCompleted()                 // [3], then completes
    /// ```
    /// Marble (interval of three dashes; `a` = `[1, 2]`, `b` = `[3]`): `-1-2---3-|` → `----a----(b|)`
    @inlinable
    public func buffer<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<[Value], Failure> {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal(unsafeStart: { sink, lifetime in
            var buffered: [Value] = []
            var generation: UInt64 = 0
            let timer = SerialDisposable()
            // The handler arms timers that post into its own mailbox: a weak reference avoids a cycle.
            weak var weakMailbox: Mailbox<TimerInput<Value, Failure>>?
            /// Sends what is buffered, if anything. Returns whether the subscription is still alive.
            func flush() -> Bool {
                if buffered.isEmpty { return true }
                let values = buffered
                buffered = []
                sink.send(.next(values))
                return !lifetime.isDisposed
            }
            let mailbox = Mailbox<TimerInput<Value, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .upstream(.next(let value)):
                    if buffered.isEmpty, let mailbox = weakMailbox {
                        // The first value of a buffer starts its timer.
                        generation &+= 1
                        let armed = generation
                        timer.inner = scheduler.schedule(after: interval) { mailbox.post(.timer(armed)) }
                    }
                    buffered.append(value)
                case .upstream(.error(let failure)):
                    buffered = []
                    sink.send(.error(failure))
                    lifetime.dispose()
                case .upstream(.completed):
                    guard flush() else { return }
                    sink.send(.completed)
                    lifetime.dispose()
                case .timer(let armed):
                    guard armed == generation else { return }
                    _ = flush()
                case .sourceGone:
                    // The source went away without a terminal event: nothing more can come. Send what is
                    // buffered and end quietly, which frees the subscription.
                    _ = flush()
                    lifetime.dispose()
                }
            }
            weakMailbox = mailbox
            lifetime.add(timer)
            // The source's completion must reach the handler even while a timer delivery runs on another
            // thread: the source gets a lifetime of its own.
            let source = CompositeDisposable(partOf: lifetime)
            lifetime.add(source)
            // After a terminal event this arrives too late to matter (the subscription has ended).
            source.add { mailbox.post(.sourceGone) }
            upstream.start(Sink { event in mailbox.post(.upstream(event)) }, in: source)
        })
    }
}
