import TetherEngine

/// The sending end handed to a signal's recipe (RAC's `id<RACSubscriber>` in `createSignal:`).
///
/// An observer is safe to use from any thread. It enforces the event grammar and the disposal
/// contract for the subscription it feeds:
///
/// - sends from several threads are serialized: the subscriber never runs two events at once;
/// - a send from inside the subscriber's own callback is queued and delivered after it returns;
/// - nothing is delivered after a terminal event, or after the subscription was disposed;
/// - after a terminal event the subscription is disposed (so the disposable the recipe returned runs)
///   and the subscriber's closures are released.
///
/// ```swift
/// let greeting = Signal<String, Never> { observer in
///     observer.send("hello")
///     observer.sendCompleted()
///     observer.send("ignored")       // after completion: dropped
///     return nil
/// }
/// ```
public final class Observer<Value, Failure: Error>: ObserverProtocol, SubscriptionCollecting, Sendable {
    // Checked: the sink is the gate's owner state (the engine's `OwnerStateGate`: only the thread
    // delivering touches it); the flags are atomic; the rest is constant.
    @usableFromInline enum Op {
        case event(Event<Value, Failure>)
        case release
    }

    /// Serializes the sends; its owner state is the subscriber's sink, released (`nil`) after the terminal
    /// event or the disposal.
    @usableFromInline let gate: OwnerStateGate<Op, Sink<Value, Failure>?>
    /// Set by a terminal event or by disposal: later sends are dropped.
    @usableFromInline let closed = AtomicFlag()
    /// Set by disposal: a callback not yet started is skipped.
    @usableFromInline let disposed = AtomicFlag()
    /// The subscription this observer feeds, ended after the terminal event or when the observer goes away.
    @usableFromInline let subscription: CompositeDisposable

    @inlinable
    init(sink: Sink<Value, Failure>, lifetime: CompositeDisposable) {
        self.gate = OwnerStateGate(state: sink)
        self.subscription = lifetime
        // Weak: a recipe that drops its observer ends the subscription (see deinit).
        lifetime.add { [weak self] in self?.disposeSubscription() }
    }

    deinit {
        // Nobody can send any more: end the subscription and free what it holds — unless its subscriber
        // is held elsewhere (a subject, a kept observer), which then decides when it ends (RAC 2.5).
        // (Disposing a subscription that ended already does nothing.)
        if !subscription.subscriberHeldElsewhere { subscription.dispose() }
    }

    /// Subscriptions made with this observer (`inner.subscribe(observer)`) end with its own.
    @usableFromInline
    func collect(_ subscription: CompositeDisposable) {
        self.subscription.add(subscription)
    }

    /// Whether this observer stopped accepting events: it sent a terminal event, or its subscription
    /// was disposed. Long-running recipes can poll it to stop early.
    ///
    /// ```swift
    /// let lines = Signal<String, Never> { observer in
    ///     for line in ["a", "b"] where !observer.isDisposed { observer.send(line) }
    ///     return nil
    /// }
    /// ```
    public var isDisposed: Bool { closed.isSet }

    /// Sends a value (RAC's `sendNext:`).
    ///
    /// The same as ``ObserverProtocol/send(_:)``; this overload knows the event is a value, so it never
    /// inspects it (when the value's type is address-only — a struct holding an `Any`, as `Notification`
    /// does — asking whether an event is terminal copies the event).
    ///
    /// ```swift
    /// let numbers = Signal<Int, Never> { observer in
    ///     observer.send(1)
    ///     return nil
    /// }
    /// ```
    @inlinable
    public func send(_ value: Value) {
        if closed.isSetRelaxed { return }
        let observer = Unmanaged.passUnretained(self)
        let delivered = gate.runIfIdle {
            deliverValue(value)
        } perform: { op in
            observer._withUnsafeGuaranteedRef { $0.perform(op) }
        }
        if delivered { return }
        gate.submitEvent(.event(.next(value))) { op in observer._withUnsafeGuaranteedRef { $0.perform(op) } }
    }

    /// Sends one event to the subscriber.
    ///
    /// ```swift
    /// let observer = Subject<Int, Never>()
    /// observer.send(event: .next(1))
    /// ```
    @inlinable
    public func send(event: Event<Value, Failure>) {
        if closed.isSetRelaxed { return }
        // Unretained in the closure: capturing `self` made every event retain and release the observer.
        let observer = Unmanaged.passUnretained(self)
        // Uncontended: delivered in place. Wrapping the event into an `Op` would copy it in and out,
        // retaining and releasing its fields each time.
        let delivered = gate.runIfIdle {
            deliver(event)
        } perform: { op in
            observer._withUnsafeGuaranteedRef { $0.perform(op) }
        }
        if delivered { return }
        gate.submitEvent(.event(event)) { op in observer._withUnsafeGuaranteedRef { $0.perform(op) } }
    }

    /// Hands `value` to the subscriber; called by the gate's owner.
    ///
    /// A values-only sink takes the value as it was passed to ``send(_:)``, borrowed: no event is made.
    /// Making `.next(value)` would copy the value, and matching it again in the sink once more (an
    /// address-only value such as a `Notification` retains its name, object and `userInfo` per copy).
    @inlinable
    func deliverValue(_ value: Value) {
        guard let sink = gate.withOwnerState({ $0 }) else { return }
        if disposed.isSetRelaxed {
            gate.acknowledgeDisposal()
            return
        }
        sink.send(next: value)
    }

    /// Hands `event` to the subscriber; called by the gate's owner.
    @inlinable
    func deliver(_ event: Event<Value, Failure>) {
        guard let sink = gate.withOwnerState({ $0 }) else { return }
        if disposed.isSetRelaxed {
            gate.acknowledgeDisposal()
            return
        }
        if event.isTerminal {
            closed.store(true)
            sink.send(event)
            release()
        } else {
            sink.send(event)
        }
    }

    @inlinable
    func perform(_ op: Op) {
        switch op {
        case .event(let event):
            deliver(event)
        case .release:
            gate.acknowledgeDisposal()
            release()
        }
    }

    @inlinable
    func release() {
        // The sink (the subscriber's closures) is taken out and released first, then the subscription ends.
        let released = gate.withOwnerState { sink in
            defer { sink = nil }
            return sink
        }
        withExtendedLifetime(released) {}
        subscription.dispose()
    }

    @inlinable
    func disposeSubscription() {
        closed.store(true)
        if !disposed.raise() { return }
        // Even after a terminal event: that terminal callback may still be running on another thread.
        gate.waitForSoleSubscription()
        gate.submitBookkeeping(.release) { self.perform($0) }
    }
}

extension Observer: DeliversOnAnyThread {}
