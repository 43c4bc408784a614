import TetherEngine

extension SignalConvertible where Value: Sendable {
    /// Collects values into arrays, each sent `interval` after the first value it holds (RAC's
    /// `bufferWithTime:onScheduler:`).
    ///
    /// A value that arrives while nothing is buffered starts the timer; when it fires, every value
    /// received since is sent as one array, on `scheduler`, and the buffer is empty again. Nothing is
    /// sent for a period without values (no empty arrays). When the source completes, what is still
    /// buffered is sent at once, then the completion, as RAC does; an error is forwarded at once and
    /// drops the buffer. Disposing cancels the timer. Values cross to the scheduler's thread, hence
    /// `Value: Sendable`. A negative interval counts as zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let taps = Subject<Int, Never>()
    /// taps.buffer(.seconds(1), on: scheduler).subscribe(next: { print($0) })
    /// taps.send(1)
    /// taps.send(2)
    /// scheduler.advance(by: .seconds(1))   // prints [1, 2]
    /// taps.send(3)
    /// taps.sendCompleted()                 // prints [3] — then completes
    /// ```
    /// Marble (interval of three dashes; `a` = `[1, 2]`, `b` = `[3]`): `-1-2---3-|` → `----a----(b|)`
    @inlinable
    public func buffer<S: Scheduler>(_ interval: Duration, on scheduler: S) -> Signal<[Value], Failure> {
        let upstream = signal
        let interval = max(interval, .zero)
        return Signal.timerDriven(by: upstream, on: scheduler) { output, timer in
            var buffered: [Value] = []
            /// Sends what is buffered, if anything.
            func flush() {
                if buffered.isEmpty { return }
                let values = buffered
                buffered = []
                output.send(values)
            }
            return { input in
                switch input {
                case .upstream(.next(let value)):
                    // The first value of a buffer starts its timer.
                    if buffered.isEmpty { timer.arm(after: interval) }
                    buffered.append(value)
                case .upstream(.error(let failure)):
                    buffered = []
                    output.finish(.error(failure))
                case .upstream(.completed):
                    flush()
                    output.finish(.completed)
                case .timerFired:
                    flush()
                case .sourceGone:
                    // The source went away without a terminal event: nothing more can come. Send what is
                    // buffered and end quietly, which frees the subscription.
                    flush()
                    output.end()
                }
            }
        }
    }
}
