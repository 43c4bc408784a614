import TetherEngine

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
