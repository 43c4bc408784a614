import TetherEngine

extension SignalConvertible where Value: Sendable {
    /// Starts the subscription — the source's recipe and its side effects — on `scheduler`
    /// (RAC's `subscribeOn:`).
    ///
    /// Events are delivered where the source sends them: for a synchronous source, on `scheduler`.
    /// Disposing before the scheduler got to it cancels the subscription: the recipe never runs.
    /// Once `dispose()` returns, nothing more is delivered. Requires `Value: Sendable`.
    ///
    /// ```swift
    /// let download = Signal<Data, URLError> { observer in
    ///     observer.send(Data(count: 1024))      // runs on the background queue
    ///     observer.sendCompleted()
    ///     return nil
    /// }
    /// download
    ///     .subscribe(on: QueueScheduler(priority: .background))
    ///     .deliver(on: QueueScheduler.main)
    ///     .subscribe(next: { print($0.count) })
    /// ```
    /// Marble (same events; the recipe starts on the scheduler): `-1-2-|` → `-1-2-|`
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S) -> Signal<Value, Failure> {
        signal.startedElsewhere { start in scheduler.schedule(start) }
    }
}
