import Dispatch
import Synchronization

extension SignalConvertible where Value: Sendable {
    /// Delivers every event on the main queue, at once when it is sent there with nothing else waiting
    /// (RAC 2.5's `deliverOnMainThread`).
    ///
    /// Unlike ``deliver(on:)`` with ``QueueScheduler/main``, an event sent on the main queue while no
    /// earlier event of this subscription waits to be delivered is delivered synchronously, before `send`
    /// returns — no hop, so a value set on the main queue shows at once. Otherwise the event is queued
    /// to the main queue behind the others: order is kept. Once `dispose()` returns, nothing more is
    /// delivered. Requires `Value: Sendable`, since values cross threads.
    ///
    /// On Linux, "the main thread" is the main queue, which only runs while the main thread drives it
    /// (`dispatchMain()`, `RunLoop.main`, a GTK main loop, or XCTest's `wait(for:timeout:)`): events sent
    /// from other threads wait until it does. It is recognised with ``QueueScheduler/isCurrent``, not
    /// `Thread.isMainThread` — see "The main queue on Linux" in ``QueueScheduler``.
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
        let upstream = signal
        return Signal.handingEvents(of: upstream) { mailbox, _ in MainThreadDelivery(mailbox: mailbox) }
    }
}

/// The hand-off of ``SignalConvertible/deliverOnMainThread()``: counts the events not yet delivered, so
/// that an event sent on the main queue with none waiting goes out at once and the others keep order.
final class MainThreadDelivery<Value: Sendable, Failure: Error>: EventHandOff {
    let mailbox: Mailbox<Event<Value, Failure>?>
    /// Events handed over but not yet delivered.
    let waiting = Atomic<Int>(0)

    init(mailbox: Mailbox<Event<Value, Failure>?>) {
        self.mailbox = mailbox
    }

    func enqueue(_ event: Event<Value, Failure>?) {
        let count = waiting.add(1, ordering: .acquiringAndReleasing).newValue
        if count == 1 && QueueScheduler.main.isCurrent {
            mailbox.post(event)
            waiting.subtract(1, ordering: .acquiringAndReleasing)
            return
        }
        DispatchQueue.main.async { [self] in
            mailbox.post(event)
            waiting.subtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
