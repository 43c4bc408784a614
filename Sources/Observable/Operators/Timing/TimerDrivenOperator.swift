import TetherEngine

/// What the handler of a timer-driven operator (`debounce`, `throttle`, `buffer(_:on:)`) reacts to.
@usableFromInline
enum TimedInput<Value, Failure: Error> {
    /// An event of the source.
    case upstream(Event<Value, Failure>)
    /// The timer armed with this generation fired. Only the timer armed last reaches a handler: the
    /// scaffold drops a firing of a timer that was replaced or cancelled, even when it fired just as it
    /// was replaced, so handlers match `.timerFired` without reading the generation.
    case timerFired(generation: UInt64)
    /// The source's subscription ended: after its terminal event (which arrived first), or without one
    /// (the source went away: nothing more can come).
    case sourceGone
}

/// The one timer of a timer-driven operator's subscription, used from its handler only.
///
/// Arming replaces (and cancels) the timer armed before. Each arming has a generation, and only a firing
/// of the current generation reaches the handler, so a timer that fires on the scheduler's thread while
/// the handler replaces it is ignored.
@usableFromInline
final class OperatorTimer<S: Scheduler> {
    // Not `Sendable`: `generation` and `fire` are touched only inside the operator's mailbox handler (and
    // `fire` once before the source starts), which the mailbox runs one input at a time; `slot` is
    // thread-safe. The firing closure it schedules captures `fire` only, never the timer.
    @usableFromInline let scheduler: S
    @usableFromInline let slot = SerialDisposable()
    @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0
    /// Posts a firing into the operator's mailbox (which it references weakly: the mailbox's handler
    /// holds this timer).
    @usableFromInline @exclusivity(unchecked) var fire: (@Sendable (UInt64) -> Void)?

    @inlinable
    init(scheduler: S) {
        self.scheduler = scheduler
    }

    /// Arms the timer to fire after `interval`, replacing the one armed before.
    @inlinable
    func arm(after interval: Duration) {
        generation &+= 1
        guard let fire else { return }
        let armed = generation
        slot.inner = scheduler.schedule(after: interval) { fire(armed) }
    }

    /// Cancels the armed timer, if any.
    @inlinable
    func cancel() {
        generation &+= 1
        slot.inner = nil
    }
}

extension Signal {
    /// The scaffold of a timer-driven operator: one handler that receives the source's events, the
    /// firings of one re-armable timer and the source's end, one at a time (through a ``Mailbox``), with
    /// no lock held while it runs.
    ///
    /// `makeHandler` runs once per subscription, with the subscription's output and its timer; the
    /// handler it returns keeps its state in the variables it captures. The source runs in a lifetime of
    /// its own, so that its terminal event reaches the handler even while a timer firing is being handled
    /// on another thread, and the operator decides when the subscription ends: the handler ends it with
    /// `output.finish(_:)`, or with `output.end()` on `.sourceGone` when it ends quietly. Disposing the subscription cancels the timer. `function` and `file` name the operator for
    /// the debugging tools (see `Signal(unsafeStart:)`).
    @inlinable
    static func timerDriven<Upstream, S: Scheduler>(
        by upstream: Signal<Upstream, Failure>,
        on scheduler: S,
        function: StaticString = #function, file: StaticString = #fileID,
        _ makeHandler:
            @escaping (OperatorOutput<Value, Failure>, OperatorTimer<S>) -> (TimedInput<Upstream, Failure>) -> Void
    ) -> Signal {
        Signal(
            unsafeStart: { sink, lifetime in
                let timer = OperatorTimer(scheduler: scheduler)
                let handle = makeHandler(OperatorOutput(sink, lifetime), timer)
                let mailbox = Mailbox<TimedInput<Upstream, Failure>>(lifetime: lifetime) { input in
                    if case .timerFired(let armed) = input, armed != timer.generation { return }
                    handle(input)
                }
                timer.fire = { [weak mailbox] armed in mailbox?.post(.timerFired(generation: armed)) }
                lifetime.add(timer.slot)
                let source = CompositeDisposable(partOf: lifetime)
                lifetime.add(source)
                // After a terminal event this arrives too late to matter (the handler has ended the subscription)
                // or is told apart by the handler (an operator whose completion waits for its timer).
                source.add { mailbox.post(.sourceGone) }
                upstream.start(Sink { event in mailbox.post(.upstream(event)) }, in: source)
            }, function: function, file: file)
    }
}
