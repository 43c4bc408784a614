import TetherEngine

extension SignalConvertible {
    /// Subscribes to this signal now, once, and replays everything it sends — values and terminal
    /// event — to every subscriber, early or late (RAC's `replay`).
    ///
    /// Eager: the source starts at this call, even if nobody ever subscribes, and keeps running until
    /// it terminates; disposing a subscriber's subscription does not stop it. All values are kept;
    /// see ``replayLast()`` to keep only the latest, ``replayLazily()`` to start on first use.
    ///
    /// ```swift
    /// func loadConfig() -> Signal<[String: String], Never> { Signal(value: ["theme": "dark"]) }
    /// let config = loadConfig().replay()   // (loads now, once)
    /// config.subscribe(next: { print("apply", $0) })  // apply ["theme": "dark"]
    /// config.subscribe(next: { print("log", $0) })    // log ["theme": "dark"] — the same values, without reloading
    /// ```
    /// Marble: source `-1-2-|`; a subscriber after it finished → `(12|)`
    public func replay() -> Signal<Value, Failure> {
        let connection = multicast(ReplaySubject(capacity: .max))
        connection.connect()
        return connection.signal
    }

    /// Like ``replay()`` but keeps only the latest value: a subscriber receives it (and the terminal
    /// event, if any), then what follows (RAC's `replayLast`). Eager.
    ///
    /// ```swift
    /// let statusUpdates = Subject<String, Never>()
    /// let status = statusUpdates.replayLast()
    /// status.subscribe(next: { print($0) })   // (the current status first)
    /// ```
    /// Marble: source `-1-2-3-`; a subscriber after 3 → `3-…`
    public func replayLast() -> Signal<Value, Failure> {
        let connection = multicast(ReplaySubject(capacity: 1))
        connection.connect()
        return connection.signal
    }

    /// Like ``replay()`` but subscribes to this signal only when the result is first subscribed to —
    /// exactly once, even when many threads subscribe at the same moment (RAC's `replayLazily`).
    ///
    /// The source is never disconnected: it keeps running after every subscriber has gone, and a
    /// later subscriber receives everything it sent.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int) -> Signal<String, Never> {
    ///     Signal { observer in print("fetching", id); observer.send("Ann"); return nil }
    /// }
    /// let user = fetchUser(42).replayLazily()   // prints nothing — nothing happens yet
    /// user.subscribe(next: { print("show", $0) })    // fetching 42, show Ann — fetches, once
    /// user.subscribe(next: { print("cache", $0) })   // cache Ann — replayed, no second fetch
    /// ```
    /// Marble: source `-1-2-|` started by the first subscriber; a later subscriber → `(12|)`
    public func replayLazily() -> Signal<Value, Failure> {
        let connection = multicast(ReplaySubject(capacity: .max))
        let replayed = connection.signal
        return Signal(unsafeStart: { sink, lifetime in
            connection.connect()
            replayed.start(sink, in: lifetime)
        })
    }
}
