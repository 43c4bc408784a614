import Synchronization
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
            let loop = RetryLoop()
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

/// Turns "subscribe again" requests into a loop, so that a source failing synchronously on every
/// subscription does not grow the stack: a request made while a subscription is being started
/// (on any thread) is picked up by the running loop once that start returns.
@usableFromInline
final class RetryLoop: Sendable {
    /// 0: idle; 1: a subscription is being started; 2: started, and another one was requested.
    @usableFromInline let state = Atomic<Int>(0)

    @inlinable
    init() {}

    /// Runs `body` now, or makes the loop already running on some thread run it once more.
    @inlinable
    func run(_ body: () -> Void) {
        var current = state.load(ordering: .relaxed)
        while true {
            let desired = current == 0 ? 1 : 2
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                if current != 0 { return }  // the running loop will call `body` again
                break
            }
            current = original
        }
        while true {
            body()
            if state.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            state.store(1, ordering: .releasing)  // it was 2: run again
        }
    }
}
