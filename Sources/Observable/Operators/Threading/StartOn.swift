import TetherEngine

extension Signal where Value: Sendable {
    /// A signal whose work runs once, on `scheduler`, when it is first subscribed to; every
    /// subscriber, early or late, receives all its events (RAC's `startLazilyWithScheduler:block:`).
    ///
    /// `block` gets an ``Observer`` to send into; it runs at most once, whatever the number of
    /// subscribers, and its events are replayed (all values and the terminal event) to each of them.
    /// Each subscription starts on `scheduler` (as with ``SignalConvertible/subscribe(on:)``), so
    /// with a synchronous `block` the events arrive there. The work is never cancelled: disposing a
    /// subscription only stops its deliveries. See ``startEagerly(on:_:)`` to start at once.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let answer = Signal<Int, Never>.startLazily(on: scheduler) { observer in
    ///     print("computing")
    ///     observer.send(42)
    ///     observer.sendCompleted()
    /// }
    /// scheduler.advance()                                 // prints nothing — not subscribed yet
    /// answer.subscribe(next: { print($0) })
    /// scheduler.advance()                                 // prints computing, 42
    /// answer.subscribe(next: { print("again", $0) })
    /// scheduler.advance()                                 // prints again 42 — replayed, not recomputed
    /// ```
    /// Marble (subscribed at 2, the block sends `1 2 |`): `--(12|)`; a later subscriber → `(12|)`
    public static func startLazily<S: Scheduler>(
        on scheduler: S, _ block: @escaping @Sendable (Observer<Value, Failure>) -> Void
    ) -> Signal<Value, Failure> {
        lazilyStarted(on: scheduler, block).signal
    }

    /// A signal whose work is scheduled on `scheduler` at once, without waiting for a subscriber;
    /// every subscriber receives all its events (RAC's `startEagerlyWithScheduler:block:`).
    ///
    /// Like ``startLazily(on:_:)``, but `block` is scheduled when this is called. It runs once, and
    /// its events are replayed (all values and the terminal event) to each subscriber.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let token = Signal<String, Never>.startEagerly(on: scheduler) { observer in
    ///     print("fetching")
    ///     observer.send("t0k3n")
    ///     observer.sendCompleted()
    /// }
    /// scheduler.advance()                        // prints fetching — no subscriber yet
    /// token.subscribe(next: { print($0) })
    /// scheduler.advance()                        // prints t0k3n — replayed
    /// ```
    /// Marble (the block sends `1 2 |` when the scheduler runs it): a later subscriber → `(12|)`
    public static func startEagerly<S: Scheduler>(
        on scheduler: S, _ block: @escaping @Sendable (Observer<Value, Failure>) -> Void
    ) -> Signal<Value, Failure> {
        let started = lazilyStarted(on: scheduler, block)
        // The connection moves to the scheduler's thread; `connect()` is thread-safe and runs once.
        let connection = UncheckedSendable(started.connection)
        _ = scheduler.schedule { _ = connection.value.connect() }
        return started.signal
    }

    /// The connection that runs `block` once, into a replay subject, and the signal that connects
    /// it on `scheduler` at its first subscription (RAC's `startLazilyWithScheduler:block:`).
    static func lazilyStarted<S: Scheduler>(
        on scheduler: S, _ block: @escaping @Sendable (Observer<Value, Failure>) -> Void
    ) -> (connection: MulticastConnection<Value, Failure>, signal: Signal<Value, Failure>) {
        let connection = Signal { observer in
            block(observer)
            return nil
        }
        .multicast(ReplaySubject(capacity: .max))
        let replayed = connection.signal
        let signal = Signal(unsafeStart: { sink, lifetime in
            replayed.start(sink, in: lifetime)
            connection.connect()
        })
        .subscribe(on: scheduler)
        return (connection, signal)
    }
}
