import TetherEngine

extension SignalConvertible {
    /// Resubscribes to the source every time it completes, forever; values from every subscription
    /// are sent (RAC's `repeat`). An error is sent on and ends the result; the result itself never
    /// completes. Disposing the subscription ends the current subscription to the source and
    /// stops the repetition.
    ///
    /// A source that completes synchronously is resubscribed in a loop rather than recursively (as
    /// RAC trampolines), so the stack does not grow: bound the result with ``take(_:)`` or
    /// ``take(until:)``. A source that completes synchronously without sending anything makes an
    /// unbounded `repeat()` loop forever, as in RAC.
    ///
    /// ```swift
    /// Signal(value: 1).repeat().take(3).subscribe(next: { print($0) })   // 1, 1, 1 — then completes
    /// ```
    /// Marble: `-1|` → `-1-1-1-…`
    @inlinable
    public func `repeat`() -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            // A source completing synchronously is resubscribed by the loop already running (see `retrying`).
            let loop = Rerun()
            func subscribeOnce() {
                upstream.startAsStage(in: lifetime) { event in
                    guard case .completed = event else {
                        output.forward(event)
                        return nil
                    }
                    return { loop.run(subscribeOnce) }
                }
            }
            loop.run(subscribeOnce)
        })
    }
}
