import TetherEngine

/// What a ``SignalConvertible/timeout(after:raising:on:)->Signal<Self.Value,Self.Failure>`` subscription reacts to.
@usableFromInline
enum TimeoutInput<Value, Failure: Error> {
    case upstream(Event<Value, Failure>)
    case timeout
}

extension SignalConvertible {
    /// Fails with `error` unless the source finishes (completes or fails) within `interval` of the
    /// subscription; the source is then disposed (RAC's `timeout:onScheduler:`).
    ///
    /// Values pass through at once and do not restart the clock. After the source finished, or
    /// after the subscription was disposed, the timeout never fires. Use ``QueueScheduler`` or
    /// ``TestScheduler``: ``ImmediateScheduler`` would block for `interval` and then time out before
    /// subscribing.
    ///
    /// ```swift
    /// enum LoadError: Error { case timedOut, failed }
    /// let scheduler = TestScheduler()
    /// let reply = Subject<String, LoadError>()
    /// reply.timeout(after: .seconds(5), raising: .timedOut, on: scheduler)
    ///     .subscribe(error: { print($0) })
    /// scheduler.advance(by: .seconds(5))   // prints timedOut
    /// ```
    /// Marble (timeout after four dashes): `-1----2-|` → `-1--#`; `-1-|` → `-1-|`
    @inlinable
    public func timeout<S: Scheduler>(after interval: Duration, raising error: Failure, on scheduler: S)
        -> Signal<Value, Failure>
    {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            let mailbox = Mailbox<TimeoutInput<Value, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .upstream(let event): output.forward(event)
                case .timeout: output.finish(.error(error))
                }
            }
            lifetime.add(scheduler.schedule(after: interval) { mailbox.post(.timeout) })
            if lifetime.isDisposed { return }
            let source = CompositeDisposable(partOf: lifetime)
            lifetime.add(source)
            upstream.start(Sink { event in mailbox.post(.upstream(event)) }, in: source)
        })
    }
}

extension SignalConvertible where Failure == Never {
    /// `timeout(after:raising:on:)` for a signal that cannot fail: the result fails with `error`
    /// when nothing ended the signal within `interval` (RAC's `timeout:onScheduler:`).
    ///
    /// ```swift
    /// enum WaitError: Error { case timedOut }
    /// let scheduler = TestScheduler()
    /// let reply = Subject<String, Never>()
    /// reply.timeout(after: .seconds(5), raising: WaitError.timedOut, on: scheduler)
    ///     .subscribe(error: { print($0) })
    /// scheduler.advance(by: .seconds(5))   // prints timedOut
    /// ```
    @inlinable
    public func timeout<S: Scheduler, NewFailure: Error>(
        after interval: Duration, raising error: NewFailure, on scheduler: S
    ) -> Signal<Value, NewFailure> {
        promoteError(NewFailure.self).timeout(after: interval, raising: error, on: scheduler)
    }
}
