import TetherEngine

extension SignalConvertible {
    /// Resubscribes to the source every time it fails, forever; values from every subscription are
    /// sent (RAC's `retry`). Completion ends the result.
    ///
    /// A source that fails synchronously on every subscription makes this loop forever (without
    /// growing the stack); bound it with ``retry(_:)``.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let connection = Subject<String, IOError>()
    /// connection.retry()   // reconnects after every failure
    /// ```
    /// Marble: `-1-X` (then `-2-|`) → `-1--2-|`
    @inlinable
    public func retry() -> Signal<Value, Failure> {
        retrying(maximumRetries: nil)
    }

    /// Resubscribes to the source when it fails, at most `count` times: the source is subscribed
    /// at most `count + 1` times in total, and its last error is sent if every attempt fails
    /// (RAC's `retry:`). A count of zero or less subscribes once.
    ///
    /// Unlike RAC, where `retry:0` retries forever, `retry(0)` does not retry; use ``retry()``.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let fetch = Signal<Data, IOError>(error: .closed)
    /// fetch.retry(2)   // up to three attempts
    /// ```
    /// Marble: `-1-X` (then `-2-X`, then `-3-|`) → `-1--2--3-|`  (retry(2))
    @inlinable
    public func retry(_ count: Int) -> Signal<Value, Failure> {
        retrying(maximumRetries: Swift.max(count, 0))
    }

    @inlinable
    func retrying(maximumRetries: Int?) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            // Touched only by the error callbacks of successive subscriptions, which follow each
            // other (each subscription starts after the previous one failed).
            var retriesLeft = maximumRetries
            let output = OperatorOutput(sink, lifetime)
            // "Subscribe again" requests made while a subscription is being started (on any thread) are picked
            // up by the loop running it once that start returns: a source failing synchronously on every
            // subscription does not grow the stack.
            let loop = Rerun()
            func subscribeOnce() {
                upstream.startAsStage(in: lifetime) { event in
                    guard case .error = event else {
                        output.forward(event)
                        return nil
                    }
                    if let left = retriesLeft {
                        if left <= 0 {
                            output.forward(event)
                            return nil
                        }
                        retriesLeft = left - 1
                    }
                    return { loop.run(subscribeOnce) }
                }
            }
            loop.run(subscribeOnce)
        })
    }
}
