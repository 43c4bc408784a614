extension SignalConvertible where Value: Sendable {
    /// Delivers every event on `scheduler`, in the order it was sent (RAC's `deliverOn:`).
    ///
    /// The subscription itself, and any side effects of the source, stay where they were; only the
    /// delivery to what follows moves. Events that arrive while a delivery is already pending on the
    /// scheduler join it, so a burst costs one scheduled action and keeps its order. Disposal is
    /// immediate: once `dispose()` returns, nothing more is delivered, and the pending delivery is
    /// cancelled. Requires `Value: Sendable`, since values cross threads.
    ///
    /// ```swift
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
        return Signal(unsafeStart: { sink, lifetime in
            // `nil`: the source went away; after a terminal event it arrives too late to matter.
            let mailbox = Mailbox<Event<Value, Failure>?>(lifetime: lifetime) { input in
                guard let event = input else {
                    // No terminal event came and none can come any more: end quietly, which frees the
                    // subscription (events queued before went out first).
                    lifetime.dispose()
                    return
                }
                sink.send(event)
                if event.isTerminal { lifetime.dispose() }
            }
            let queue = DeliveryQueue(scheduler: scheduler, mailbox: mailbox)
            lifetime.add(queue)
            // The source's terminal event would dispose the lifetime it runs in before the scheduler
            // delivered what is still queued: give it a child of its own.
            let source = CompositeDisposable()
            lifetime.add(source)
            source.add { queue.enqueue(nil) }
            upstream.start(Sink { queue.enqueue($0) }, in: source)
        })
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
    ///     observer.send(fetchBlocking(url))      // runs on the background queue
    ///     observer.sendCompleted()
    ///     return nil
    /// }
    /// download
    ///     .subscribe(on: QueueScheduler(priority: .background))
    ///     .deliver(on: QueueScheduler.main)
    ///     .subscribe(next: { show($0) })
    /// ```
    /// Marble (same events; the recipe starts on the scheduler): `-1-2-|` → `-1-2-|`
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let mailbox = Mailbox<Event<Value, Failure>>(lifetime: lifetime) { event in
                sink.send(event)
                if event.isTerminal { lifetime.dispose() }
            }
            // The recipe moves to the scheduler's thread: from here on, only that action uses it.
            let recipe = UncheckedSendable(upstream)
            let work = scheduler.schedule {
                if lifetime.isDisposed { return }
                recipe.value.start(Sink { mailbox.post($0) }, in: lifetime)
            }
            if !work.isDisposed { lifetime.add(work) }
        })
    }
}

/// The buffer between a source and the scheduler for ``SignalConvertible/deliver(on:)``.
///
/// Events are appended under a lock; the first one of a burst schedules a drain, which hands the
/// batch to the mailbox (that gates delivery against disposal) and reschedules itself while more
/// arrived, so one delivery runs at a time, in order, and the scheduler's other work is not starved.
@usableFromInline
final class DeliveryQueue<Value: Sendable, Failure: Error, S: Scheduler>: Disposable, @unchecked Sendable {
    // Safety: the mutable state is guarded by `lock`, which is never held while anything runs;
    // `scheduler` and `mailbox` are Sendable.
    @usableFromInline let lock = Lock()
    @usableFromInline let scheduler: S
    @usableFromInline let mailbox: Mailbox<Event<Value, Failure>?>
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)
    /// Guarded by `lock`: events waiting for the next drain.
    @usableFromInline var buffer: [Event<Value, Failure>?] = []
    /// Guarded by `lock`: a drain is scheduled or running.
    @usableFromInline var draining = false
    /// Guarded by `lock`: numbers each scheduling, so a late store never replaces a newer one.
    @usableFromInline var ticket: UInt64 = 0
    /// Guarded by `lock`: the scheduled drain, cancelled on disposal.
    @usableFromInline var scheduled: (any Disposable)?
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
        if draining {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        scheduleDrain()
    }

    @inlinable
    func scheduleDrain() {
        lock.lock()
        ticket &+= 1
        let mine = ticket
        lock.unlock()
        let work = scheduler.schedule { self.drain() }
        lock.lock()
        if disposed {
            lock.unlock()
            work.dispose()
            return
        }
        // Keep it only if it is still the latest scheduling and has not finished the burst already.
        if ticket == mine && draining { scheduled = work }
        lock.unlock()
    }

    @inlinable
    func drain() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        let batch = buffer
        buffer.removeAll(keepingCapacity: true)
        scheduled = nil
        lock.unlock()
        for event in batch {
            mailbox.post(event)
        }
        lock.lock()
        if buffer.isEmpty || disposed {
            draining = false
            lock.unlock()
            return
        }
        lock.unlock()
        scheduleDrain()
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
        let work = scheduled
        scheduled = nil
        lock.unlock()
        work?.dispose()
    }
}
