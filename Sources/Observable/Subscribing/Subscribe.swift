import TetherEngine

extension SignalConvertible {
    /// Starts a subscription with closures for values, failure and completion (RAC's
    /// `subscribeNext:error:completed:`). Each closure is optional.
    ///
    /// The subscription lives until its terminal event or until the returned disposable is disposed;
    /// you may ignore the result, as RAC allows: the pipeline keeps running. Once it ends, the
    /// closures are released.
    ///
    /// ```swift
    /// let subject = Subject<String, Never>()
    /// let subscription = subject.subscribe(
    ///     next: { print("got", $0) },
    ///     completed: { print("done") })
    /// subject.send("a")          // prints got a
    /// subscription.dispose()
    /// subject.send("b")          // prints nothing
    /// ```
    @discardableResult
    @inlinable
    public func subscribe(
        next: ((Value) -> Void)? = nil,
        error: ((Failure) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(next: next ?? { _ in }, error: error, completed: completed, isolation: isolation)
    }

    /// Starts a subscription with a closure for values, and optional closures for failure and
    /// completion (RAC's `subscribeNext:error:completed:`).
    ///
    /// The same as the form whose closures are all optional, when a `next` closure is given; this
    /// overload exists for speed. A closure passed as an optional parameter is stored at
    /// its most general calling convention, so each value would go through two conversion thunks before
    /// reaching it; taken as a plain closure it is called directly.
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// var total = 0
    /// subject.subscribe(next: { total += $0 })
    /// subject.send(2)
    /// subject.send(3)          // total == 5
    /// ```
    @discardableResult
    @inlinable
    public func subscribe(
        next: @escaping (Value) -> Void,
        error: ((Failure) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        let lifetime = CompositeDisposable()
        if let isolation = CallerIsolation(isolation) {
            // Actor-isolated code: the closures belong to that actor; run them there (<doc:Isolation>).
            let sink = Sink<Value, Failure> { event in
                switch event {
                case .next(let value): next(value)
                case .error(let failure): error?(failure)
                case .completed: completed?()
                }
            }
            isolation.starting { signal.delivered(on: isolation).startSubscription(sink, in: lifetime) }
        } else if error == nil && completed == nil {
            // The sink holds the closure given as it is: no context of its own for such a subscription.
            signal.startSubscription(.values(next), in: lifetime)
        } else {
            signal.startSubscription(
                Sink { event in
                    switch event {
                    case .next(let value): next(value)
                    case .error(let failure): error?(failure)
                    case .completed: completed?()
                    }
                }, in: lifetime)
        }
        return lifetime
    }

    /// Starts a subscription whose events are forwarded to `observer` — an ``Observer`` of another
    /// signal's recipe, or a subject.
    ///
    /// As in RAC 2.5, the subscriber collects the subscription: it lives as long as that observer or
    /// subject does — even if the recipe drops its own ``Observer`` — until its terminal event, until it
    /// is disposed, or until the subscriber terminates, which disposes every subscription made with it. A
    /// subscription made with a subscriber that has already terminated is disposed at once. With an
    /// ``Observer`` of another recipe, disposing that outer subscription disposes this one too.
    ///
    /// Tether's own observers (``Observer``, the subjects, channel terminals) are safe on any thread and
    /// receive the events where they are sent. An observer of your own, subscribed from actor-isolated code
    /// (a `@MainActor` view model), receives them on that actor, as the closures of
    /// `subscribe(next:error:completed:)` do (see <doc:Isolation>).
    ///
    /// ```swift
    /// let source = Subject<Int, Never>()
    /// let relay = Signal<Int, Never> { observer in
    ///     source.subscribe(observer)
    /// }
    /// ```
    @discardableResult
    @inlinable
    public func subscribe<O: ObserverProtocol>(
        _ observer: O, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable
    where O.Value == Value, O.Failure == Failure {
        guard let collector = observer as? any SubscriptionCollecting else {
            let lifetime = CompositeDisposable()
            observer.didSubscribe(with: lifetime)
            if let isolation = CallerIsolation(isolation), !(observer is any DeliversOnAnyThread) {
                // An observer of the caller's own, written on an actor: it belongs there (issue 42, bug 5).
                isolation.starting {
                    signal.delivered(on: isolation).startSubscription(
                        Sink { event in observer.send(event: event) }, in: lifetime)
                }
                return lifetime
            }
            signal.startSubscription(Sink { event in observer.send(event: event) }, in: lifetime)
            return lifetime
        }
        let lifetime = CompositeDisposable(subscriberHeldElsewhere: true)
        // A terminated subscriber disposes it at once; the recipe still runs (as in RAC 2.5), its
        // cleanup runs at once, and nothing it sends arrives.
        collector.collect(lifetime)
        observer.didSubscribe(with: lifetime)
        signal.startSubscription(Sink { event in observer.send(event: event) }, in: lifetime)
        return lifetime
    }

    /// Starts a subscription with one closure that receives every ``Event``.
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// signal.subscribeEvents { event in print(event) }   // next(1) … completed
    /// ```
    @discardableResult
    @inlinable
    public func subscribeEvents(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping (Event<Value, Failure>) -> Void
    ) -> any Disposable {
        let lifetime = CompositeDisposable()
        if let isolation = CallerIsolation(isolation) {
            isolation.starting { signal.delivered(on: isolation).startSubscription(Sink(handler), in: lifetime) }
        } else {
            signal.startSubscription(Sink(handler), in: lifetime)
        }
        return lifetime
    }
}
