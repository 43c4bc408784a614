import TetherEngine

/// What a ``SignalConvertible/delay(_:on:)`` subscription reacts to.
@usableFromInline
enum DelayInput<Value, Failure: Error> {
    /// An event from the source and the scheduler's time when it arrived.
    case upstream(Event<Value, Failure>, at: Duration)
    /// The timer for the oldest delayed event fired.
    case timer
    /// The source's subscription ended (after its terminal event, or without one: nothing more can come).
    case sourceGone
}

/// The events a ``SignalConvertible/delay(_:on:)`` subscription holds back, oldest first, with the
/// time each one is due. One timer runs at a time, for the oldest event.
@usableFromInline
struct DelayState<Value, Failure: Error> {
    @usableFromInline var queue: [(due: Duration, event: Event<Value, Failure>)] = []
    @usableFromInline var head = 0
    @usableFromInline var timerArmed = false

    @inlinable
    init() {}

    /// Holds back `event` until `due`. Returns whether a timer must be armed for it.
    @inlinable
    mutating func hold(_ event: Event<Value, Failure>, until due: Duration) -> Bool {
        queue.append((due, event))
        if timerArmed { return false }
        timerArmed = true
        return true
    }

    /// The oldest event if it is due at `now`, or unconditionally when `force` is set (the timer
    /// armed for it fired, whatever a clock read a moment later says).
    @inlinable
    mutating func popDue(now: Duration, force: Bool) -> Event<Value, Failure>? {
        guard head < queue.count, force || queue[head].due <= now else { return nil }
        let event = queue[head].event
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: queue.count <= 64)
            head = 0
        } else if head >= 64 && head * 2 >= queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return event
    }

    /// After the due events were sent: how long to wait for the next one, or `nil` when none is left.
    /// Whether events are held (waiting for their time).
    @inlinable
    var isHolding: Bool { head < queue.count }

    @inlinable
    mutating func nextWait(now: Duration) -> Duration? {
        guard head < queue.count else {
            timerArmed = false
            return nil
        }
        return max(queue[head].due - now, .zero)
    }
}

extension SignalConvertible where Value: Sendable {
    /// Sends each value and the completion `interval` later, on `scheduler`; errors pass at once and
    /// drop what is still held back (RAC's `delay:`).
    ///
    /// Order is kept. Disposing cancels the held-back events and the timer. Values are delivered from
    /// the scheduler's thread, hence `Value: Sendable`. A negative interval counts as zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let clicks = Subject<Int, Never>()
    /// clicks.delay(.seconds(1), on: scheduler).subscribe(next: { print($0) })
    /// clicks.send(1)                          // prints nothing yet
    /// scheduler.advance(by: .seconds(1))      // 1
    /// ```
    /// Marble (delay of two dashes): `-1-2-|` → `---1-2-|`; `-1-#` → `---#` (error at once)
    @inlinable
    public func delay<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<Value, Failure> {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal(unsafeStart: { sink, lifetime in
            var state = DelayState<Value, Failure>()
            var sourceGone = false
            let timer = SerialDisposable()
            // The handler arms timers that post into its own mailbox: a weak reference avoids a cycle.
            weak var weakMailbox: Mailbox<DelayInput<Value, Failure>>?
            let output = OperatorOutput(sink, lifetime)
            let mailbox = Mailbox<DelayInput<Value, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .upstream(.error(let failure), _):
                    output.finish(.error(failure))
                case .upstream(let event, let time):
                    if state.hold(event, until: time + interval), let mailbox = weakMailbox {
                        timer.inner = scheduler.schedule(after: interval) { mailbox.post(.timer) }
                    }
                case .timer:
                    let now = scheduler.now
                    var force = true
                    while let event = state.popDue(now: now, force: force) {
                        force = false
                        output.forward(event)
                        if output.isFinished { return }
                    }
                    if let wait = state.nextWait(now: now) {
                        if let mailbox = weakMailbox {
                            timer.inner = scheduler.schedule(after: wait) { mailbox.post(.timer) }
                        }
                    } else if sourceGone {
                        // Everything held went out and the source went away without a terminal event.
                        output.end()
                    }
                case .sourceGone:
                    // Held events (a terminal one included) still go out at their time; with nothing held,
                    // nothing more can come: end quietly, which frees the subscription.
                    sourceGone = true
                    if !state.isHolding { output.end() }
                }
            }
            weakMailbox = mailbox
            lifetime.add(timer)
            // The source's completion must not end the subscription before the delayed events went out.
            let source = CompositeDisposable(partOf: lifetime)
            lifetime.add(source)
            source.add { mailbox.post(.sourceGone) }
            upstream.start(Sink { event in mailbox.post(.upstream(event, at: scheduler.now)) }, in: source)
        })
    }
}
