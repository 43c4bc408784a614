extension SignalConvertible where Value: Sendable {
    /// Delivers every event on `scheduler`, in the order it was sent (RAC's `deliverOn:`).
    ///
    /// The subscription itself, and any side effects of the source, stay where they were; only the
    /// delivery to what follows moves. As in RAC, each event is scheduled on its own, when it is sent: so
    /// events keep their order, also across different signals delivered on the same scheduler (what one
    /// signal sends before another arrives before it). Disposal is immediate: once `dispose()` returns,
    /// nothing more is delivered, and the pending deliveries are cancelled. Requires `Value: Sendable`,
    /// since values cross threads (`@MainActor` classes are `Sendable`); to build a value that is not
    /// `Sendable` in the background and deliver it, use ``Signal/start(on:deliveringOn:_:)``.
    ///
    /// ```swift
    /// final class Table { func show(_ rows: [String]) {} }
    /// let table = Table()
    /// let results = Subject<[String], Never>()
    /// results
    ///     .deliver(on: QueueScheduler.main)
    ///     .subscribe(next: { rows in table.show(rows) })   // runs on the main queue
    /// results.send(["a", "b"])                             // from any thread
    /// ```
    /// Marble (the same events, later, on the scheduler): `-1-2-3-|` → `--1-2-3-|`
    @inlinable
    public func deliver<S: Scheduler>(on scheduler: S) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal.handingEvents(of: upstream) { mailbox, lifetime in
            let queue = DeliveryQueue(scheduler: scheduler, mailbox: mailbox)
            lifetime.add(queue)
            return queue
        }
    }

    /// Starts the subscription — the source's recipe and its side effects — on `scheduler`
    /// (RAC's `subscribeOn:`).
    ///
    /// Events are delivered where the source sends them: for a synchronous source, on `scheduler`.
    /// Disposing before the scheduler got to it cancels the subscription: the recipe never runs.
    /// Once `dispose()` returns, nothing more is delivered. Requires `Value: Sendable`.
    ///
    /// ```swift
    /// let download = Signal<Data, URLError> { observer in
    ///     observer.send(Data(count: 1024))      // runs on the background queue
    ///     observer.sendCompleted()
    ///     return nil
    /// }
    /// download
    ///     .subscribe(on: QueueScheduler(priority: .background))
    ///     .deliver(on: QueueScheduler.main)
    ///     .subscribe(next: { print($0.count) })
    /// ```
    /// Marble (same events; the recipe starts on the scheduler): `-1-2-|` → `-1-2-|`
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S) -> Signal<Value, Failure> {
        signal.startedElsewhere { start in scheduler.schedule(start) }
    }
}

/// The buffer between a source and the scheduler for ``SignalConvertible/deliver(on:)``.
///
/// Each event is appended under the lock and schedules one action, which takes the oldest event and
/// hands it to the mailbox (that gates delivery against disposal). One action per event, scheduled when
/// the event is sent, is what keeps the order of events across signals that deliver on the same
/// scheduler (RAC 2.5's `deliverOn:` schedules each event). Disposal cancels what is still scheduled.
@usableFromInline
final class DeliveryQueue<Value: Sendable, Failure: Error, S: Scheduler>: EventHandOff, Disposable, @unchecked Sendable
{
    // Safety: the mutable state is guarded by `lock`, which is never held while anything runs;
    // `scheduler` and `mailbox` are Sendable.
    @usableFromInline let lock = Lock()
    @usableFromInline let scheduler: S
    @usableFromInline let mailbox: Mailbox<Event<Value, Failure>?>
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)
    /// Guarded by `lock`: events not yet handed over, oldest at `head`.
    @usableFromInline var buffer: [Event<Value, Failure>?] = []
    @usableFromInline var head = 0
    /// Guarded by `lock`: the scheduled actions not yet run (cancelled on disposal), by the event's number.
    @usableFromInline var scheduled: [UInt64: any Disposable] = [:]
    @usableFromInline var nextNumber: UInt64 = 0
    /// Guarded by `lock`.
    @usableFromInline var disposed = false

    @inlinable
    init(scheduler: S, mailbox: Mailbox<Event<Value, Failure>?>) {
        self.scheduler = scheduler
        self.mailbox = mailbox
    }

    @usableFromInline var isDisposed: Bool { lock.withLock { disposed } }

    @inlinable
    func enqueue(_ event: Event<Value, Failure>?) {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        buffer.append(event)
        let number = nextNumber
        nextNumber &+= 1
        lock.unlock()
        let work = scheduler.schedule { self.deliverOne(number) }
        lock.lock()
        if disposed {
            lock.unlock()
            work.dispose()
            return
        }
        // Not yet run (an immediate scheduler has run it already): keep it for cancellation.
        if !work.isDisposed && number >= deliveredCount { scheduled[number] = work }
        lock.unlock()
    }

    /// How many events were handed over (guarded by `lock`).
    @usableFromInline var deliveredCount: UInt64 = 0

    @inlinable
    func deliverOne(_ number: UInt64) {
        lock.lock()
        if disposed || head == buffer.count {
            lock.unlock()
            return
        }
        let event = buffer[head]
        head += 1
        deliveredCount &+= 1
        scheduled[number] = nil
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64)
            head = 0
        } else if head > 64 && head * 2 > buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
        lock.unlock()
        mailbox.post(event)
    }

    @usableFromInline
    func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        buffer = []
        head = 0
        let work = scheduled
        scheduled = [:]
        lock.unlock()
        for item in work.values { item.dispose() }
    }
}

/// How an operator that delivers elsewhere (``SignalConvertible/deliver(on:)``,
/// ``SignalConvertible/deliverOnMainThread()``) hands the source's events over to its mailbox.
@usableFromInline
protocol EventHandOff<Value, Failure>: Sendable {
    associatedtype Value
    associatedtype Failure: Error
    /// Hands `event` over (`nil`: the source's subscription ended; after a terminal event it arrives
    /// too late to matter).
    func enqueue(_ event: Event<Value, Failure>?)
}

extension Signal {
    /// The scaffold of an operator that delivers the source's events elsewhere: `makeHandOff` gets the
    /// mailbox that sends them downstream (and ends the subscription after a terminal event) and the
    /// subscription's lifetime, and returns what hands the events over to that mailbox.
    ///
    /// `function` and `file` name the operator for the debugging tools (see `Signal(unsafeStart:)`).
    ///
    /// The source runs in a lifetime of its own: its terminal event would otherwise dispose the
    /// subscription before what is still queued was delivered. When it ends without a terminal event,
    /// nothing more can come: the subscription ends quietly once what was queued before went out.
    @inlinable
    static func handingEvents<HandOff: EventHandOff>(
        of upstream: Signal,
        function: StaticString = #function, file: StaticString = #fileID,
        _ makeHandOff: @escaping (Mailbox<Event<Value, Failure>?>, CompositeDisposable) -> HandOff
    ) -> Signal where HandOff.Value == Value, HandOff.Failure == Failure {
        Signal(
            unsafeStart: { sink, lifetime in
                let output = OperatorOutput(sink, lifetime)
                let mailbox = Mailbox<Event<Value, Failure>?>(lifetime: lifetime) { input in
                    // `nil`: the source went away without a terminal event, after what it queued before.
                    guard let event = input else { return output.end() }
                    output.forward(event)
                }
                let handOff = makeHandOff(mailbox, lifetime)
                let source = CompositeDisposable(partOf: lifetime)
                lifetime.add(source)
                source.add { handOff.enqueue(nil) }
                upstream.start(Sink { handOff.enqueue($0) }, in: source)
            }, function: function, file: file)
    }
}

extension Signal {
    /// This signal with its recipe started by the work `schedule` runs elsewhere (a scheduler's thread,
    /// an actor), its events sent on from wherever the recipe sends them, through a mailbox. `schedule`
    /// returns what cancels the start, if anything. Disposing before the start runs cancels it: the recipe
    /// never runs. The scaffold of `subscribe(on:)` and of `started(on:)` (a `Command`'s work on its actor).
    @inlinable
    package func startedElsewhere(
        function: StaticString = #function,
        _ schedule: @escaping (_ start: @escaping @Sendable () -> Void) -> (any Disposable)?
    ) -> Signal {
        let upstream = self
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let output = OperatorOutput(sink, lifetime)
                let mailbox = Mailbox<Event<Value, Failure>>(lifetime: lifetime) { event in
                    output.forward(event)
                }
                // The recipe moves to where the start runs: from here on, only that work uses it.
                let recipe = UncheckedSendable(upstream)
                let work = schedule {
                    if lifetime.isDisposed { return }
                    recipe.value.start(Sink { mailbox.post($0) }, in: lifetime)
                }
                if let work, !work.isDisposed { lifetime.add(work) }
            })
    }
}
