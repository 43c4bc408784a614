import Dispatch
import TetherEngine

extension SignalConvertible where Value: Sendable {
    /// Delivers every event on the main queue, at once when it is sent there with nothing else waiting
    /// (RAC 2.5's `deliverOnMainThread`).
    ///
    /// Unlike ``deliver(on:)`` with ``QueueScheduler/main``, an event sent on the main queue (or, as RAC's
    /// `NSThread.isMainThread` test has it, on the main thread outside the queue's blocks) while no earlier
    /// event of this subscription waits to be delivered is delivered synchronously, before `send` returns —
    /// no hop, so a value set on the main queue shows at once. Otherwise the event is queued
    /// to the main queue behind the others: order is kept, and the events waiting go out together, one
    /// main-queue block per batch, so other main-queue work runs between batches. At most a source's
    /// backlog (4,096 events) waits: past it, a sender off the main queue waits for room, as it does for a
    /// slow subscriber. Once `dispose()` returns, nothing more is delivered, and the events still waiting
    /// are released. Requires `Value: Sendable`, since values cross threads.
    ///
    /// On Linux, "the main thread" is the main queue, which only runs while the main thread drives it
    /// (`dispatchMain()`, `RunLoop.main`, a GTK main loop, or XCTest's `wait(for:timeout:)`): events sent
    /// from other threads wait until it does. The main queue is recognised with ``QueueScheduler/isCurrent``
    /// — see "The main queue on Linux" in ``QueueScheduler`` — and the main thread by its identity.
    ///
    /// ```swift
    /// final class Label { var text = "" }
    /// let status = Label()
    /// let messages = Subject<String, Never>()
    /// messages
    ///     .deliverOnMainThread()
    ///     .subscribe(next: { text in status.text = text })   // always on the main queue
    /// messages.send("Loading…")   // from the main queue: shown before send returns
    /// ```
    public func deliverOnMainThread() -> Signal<Value, Failure> {
        // The hop of a subscriber written on the main actor: in order, bounded (a sender off the main
        // queue waits while a source's backlog of events waits for it), a batch per main-queue block, and
        // what is still queued is dropped when the subscription is disposed.
        Signal.handingEvents(of: signal) { mailbox, lifetime in
            let handOff = CallerIsolationHandOff(isolation: .main, mailbox: mailbox)
            lifetime.add(handOff)
            return handOff
        }
    }
}

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
}

/// The buffer between a source and the scheduler for ``SignalConvertible/deliver(on:)``.
///
/// Each event is appended under the lock and schedules one action, which takes the oldest event and
/// hands it to the mailbox (that gates delivery against disposal). One action per event, scheduled when
/// the event is sent, is what keeps the order of events across signals that deliver on the same
/// scheduler (RAC 2.5's `deliverOn:` schedules each event). Disposal cancels what is still scheduled.
///
/// Checked `Sendable`: its one piece of mutable state is a ``LockedState``, never locked while anything
/// runs (the scheduler's `schedule`, an action's `dispose`, the mailbox's delivery happen after it).
@usableFromInline
final class DeliveryQueue<Value: Sendable, Failure: Error, S: Scheduler>: EventHandOff, Disposable, Sendable {
    /// What the queue holds between a send and its scheduled action.
    @usableFromInline
    struct State: Sendable {
        /// Events not yet handed over, oldest first.
        @usableFromInline var buffer = FIFOBuffer<Event<Value, Failure>?>()
        /// The scheduled actions not yet run (cancelled on disposal), by the event's number.
        @usableFromInline var scheduled: [UInt64: any Disposable] = [:]
        /// The next event's number.
        @usableFromInline var nextNumber: UInt64 = 0
        /// How many events were handed over.
        @usableFromInline var deliveredCount: UInt64 = 0
        @usableFromInline var disposed = false

        @inlinable
        init() {}
    }

    @usableFromInline let state = LockedState(State())
    @usableFromInline let scheduler: S
    @usableFromInline let mailbox: Mailbox<Event<Value, Failure>?>
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)

    @inlinable
    init(scheduler: S, mailbox: Mailbox<Event<Value, Failure>?>) {
        self.scheduler = scheduler
        self.mailbox = mailbox
    }

    @usableFromInline var isDisposed: Bool { state.withLock { $0.disposed } }

    @inlinable
    func enqueue(_ event: Event<Value, Failure>?) {
        let number: UInt64? = state.withLock { state in
            if state.disposed { return nil }
            state.buffer.append(event)
            defer { state.nextNumber &+= 1 }
            return state.nextNumber
        }
        guard let number else { return }
        let work = scheduler.schedule { self.deliverOne(number) }
        let cancelled = state.withLock { state in
            if state.disposed { return true }
            // Not yet run (an immediate scheduler has run it already): keep it for cancellation.
            if !work.isDisposed && number >= state.deliveredCount { state.scheduled[number] = work }
            return false
        }
        if cancelled { work.dispose() }
    }

    @inlinable
    func deliverOne(_ number: UInt64) {
        // `nil`: nothing to hand over (disposed); `.some(nil)`: the source's subscription ended.
        let next: Event<Value, Failure>?? = state.withLock { state in
            if state.disposed || state.buffer.isEmpty { return nil }
            state.deliveredCount &+= 1
            state.scheduled[number] = nil
            return .some(state.buffer.removeFirst())
        }
        if let next { mailbox.post(next) }
    }

    @usableFromInline
    func dispose() {
        let work: [UInt64: any Disposable]? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            state.buffer = FIFOBuffer()
            defer { state.scheduled = [:] }
            return state.scheduled
        }
        guard let work else { return }
        for item in work.values { item.dispose() }
    }
}
