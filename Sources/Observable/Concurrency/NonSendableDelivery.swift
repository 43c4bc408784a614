import TetherEngine

extension Signal {
    /// Runs `work` on `workScheduler` for each subscription and delivers its result on
    /// `deliveryScheduler`, then completes — for a `Value` that is not `Sendable` (RAC's
    /// `[[RACSignal startLazilyWithScheduler:background block:…] deliverOn:mainThreadScheduler]`).
    ///
    /// ``SignalConvertible/deliver(on:)`` and ``SignalConvertible/subscribe(on:)`` require
    /// `Value: Sendable`, since any signal may keep and share its values. Here the compiler checks
    /// instead that `work` gives its result up: it returns a `sending` value — a new object, or one that
    /// nothing else references — so moving it to the delivery scheduler is safe, and the usual case of a
    /// RAC port, "build a model in the background, show it on the main queue", compiles without
    /// `@unchecked Sendable`. A value `work` still references elsewhere does not compile.
    ///
    /// An error `work` throws (typed throws: `Failure`) is sent instead of the value. Disposing before
    /// `work` ran cancels it; disposing before the delivery cancels the delivery. Values that are
    /// `Sendable` — including `@MainActor` classes, which are — can use ``SignalConvertible/deliver(on:)``
    /// as usual.
    ///
    /// <!-- example: output-unchecked: the rows arrive on the main queue after the background work, not before subscribe returns -->
    /// ```swift
    /// nonisolated final class SearchResults {  // not Sendable: a plain class with mutable state
    ///     var rows: [String] = []
    /// }
    /// let background = QueueScheduler(priority: .background)
    /// let results = Signal<SearchResults, Never>.start(on: background, deliveringOn: QueueScheduler.main) {
    ///     let results = SearchResults()        // made here, referenced nowhere else: it can move
    ///     results.rows = ["a", "b"]
    ///     return results
    /// }
    /// results.subscribe(next: { print($0.rows) })   // ["a", "b"] — on the main queue
    /// ```
    public static func start<Work: Scheduler, Delivery: Scheduler>(
        on workScheduler: Work,
        deliveringOn deliveryScheduler: Delivery,
        _ work: @escaping @Sendable () throws(Failure) -> sending Value
    ) -> Signal<Value, Failure> {
        Signal(unsafeStart: { sink, lifetime in
            let mailbox = Mailbox<Event<Value, Failure>>(lifetime: lifetime) { event in
                sink.send(event)
                if event.isTerminal { lifetime.dispose() }
            }
            let scheduled = workScheduler.schedule {
                if lifetime.isDisposed { return }
                let result: Result<Value, Failure>
                do throws(Failure) {
                    result = .success(try work())
                } catch {
                    result = .failure(error)
                }
                // `work` returned a `sending` value: nothing else references it, so it may cross to
                // the delivery scheduler, where only the mailbox (and then the subscriber) uses it.
                let crossing = UncheckedSendable(result)
                let delivery = deliveryScheduler.schedule {
                    switch crossing.value {
                    case .success(let value):
                        mailbox.post(.next(value))
                        mailbox.post(.completed)
                    case .failure(let failure):
                        mailbox.post(.error(failure))
                    }
                }
                if !delivery.isDisposed { lifetime.add(delivery) }
            }
            if !scheduled.isDisposed { lifetime.add(scheduled) }
        })
    }
}
