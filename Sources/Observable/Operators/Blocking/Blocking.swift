import TetherEngine

extension SignalConvertible {
    /// **Blocks** the calling thread until the signal sends its first value, and returns it; returns
    /// `nil` if the signal completes without a value (RAC's `first`). The subscription ends after the
    /// first value.
    ///
    /// A signal that finishes during subscription (such as `Signal(values:)`) returns at once on any
    /// thread. Otherwise the calling thread waits — so never call it where the events you wait for
    /// need that thread:
    /// - On the main thread (or the main queue), it does not wait: it disposes the subscription and
    ///   throws ``BlockingError/wouldBlockMainThread``.
    /// - From inside a callback of the same pipeline, whose next events are delivered on this thread
    ///   only after that callback returns, it deadlocks; that case is not detected.
    ///
    /// - Throws: ``BlockingError/failed(_:)`` with the signal's error, or
    ///   ``BlockingError/interrupted`` if its source went away without finishing.
    ///
    /// ```swift
    /// Thread.detachNewThread {   // not on the main thread
    ///     let worker = QueueScheduler()
    ///     let answer = try? Signal(value: 42).deliver(on: worker).first()   // 42
    ///     print(answer ?? 0)
    /// }
    /// ```
    @_disfavoredOverload  // a project's own non-throwing `first()` helper (a common test helper) keeps working
    public func first() throws(BlockingError<Failure>) -> Value? {
        try waitForLast(of: take(1))
    }

    /// **Blocks** the calling thread until the signal sends its first value, and returns it; returns
    /// `defaultValue` if the signal completes without a value (RAC's `firstOrDefault:`).
    ///
    /// Waits and refuses as ``first()`` does.
    ///
    /// - Throws: ``BlockingError/failed(_:)`` with the signal's error,
    ///   ``BlockingError/wouldBlockMainThread``, or ``BlockingError/interrupted``.
    ///
    /// ```swift
    /// let none = try? Signal<Int, Never>.empty.first(default: 0)   // 0
    /// ```
    public func first(default defaultValue: Value) throws(BlockingError<Failure>) -> Value {
        try waitForLast(of: take(1)) ?? defaultValue
    }

    /// **Blocks** the calling thread until the signal completes, ignoring its values (RAC's
    /// `waitUntilCompleted:`, which returns `NO` and the error where this throws).
    ///
    /// Waits and refuses as ``first()`` does.
    ///
    /// - Throws: ``BlockingError/failed(_:)`` with the signal's error,
    ///   ``BlockingError/wouldBlockMainThread``, or ``BlockingError/interrupted``.
    ///
    /// ```swift
    /// Thread.detachNewThread {
    ///     let save = Signal<Void, Never>.empty.deliver(on: QueueScheduler())
    ///     try? save.waitUntilCompleted()
    ///     print("saved")
    /// }
    /// ```
    public func waitUntilCompleted() throws(BlockingError<Failure>) {
        _ = try waitForLast(of: ignoreValues())
    }

    /// **Blocks** the calling thread until the signal completes, and returns every value it sent, in
    /// order (RAC's `toArray`).
    ///
    /// Waits and refuses as ``first()`` does.
    ///
    /// - Throws: ``BlockingError/failed(_:)`` with the signal's error,
    ///   ``BlockingError/wouldBlockMainThread``, or ``BlockingError/interrupted``.
    ///
    /// ```swift
    /// let all = try? Signal(values: 1...3).toArray()   // [1, 2, 3], at once on any thread
    /// ```
    public func toArray() throws(BlockingError<Failure>) -> [Value] {
        try waitForLast(of: collect()) ?? []
    }

    /// Subscribes to `source`, waits for its terminal event and returns the last value it sent.
    func waitForLast<Result>(of source: Signal<Result, Failure>) throws(BlockingError<Failure>) -> Result? {
        let outcome = SettledOnce<Swift.Result<Result?, BlockingError<Failure>>>()
        let lifetime = CompositeDisposable()
        // Runs after a terminal event too, when `settle` no longer changes anything.
        lifetime.add { outcome.settle(.failure(.interrupted)) }
        // The waiting caller is this subscription's downstream: it gets the last value (or the error).
        let output = OperatorOutput(
            Sink<Result?, Failure> { event in
                switch event {
                case .next(let last): outcome.settle(.success(last))
                case .error(let failure): outcome.settle(.failure(.failed(failure)))
                case .completed: break
                }
            }, lifetime)
        var last: Result?
        // A root of its own: from inside a callback, work queued for the enclosing root (a deep chain's)
        // would run only after this call returns, and the wait below would never end.
        DeepChainTrampoline.runAsNestedRoot {
            source.start(
                Sink { event in
                    switch event {
                    case .next(let value): last = value
                    case .error(let failure): output.finish(.error(failure))
                    case .completed: output.finish(after: last)
                    }
                }, in: lifetime)
        }
        if !outcome.isSettled, isOnMainThread(), outcome.settle(.failure(.wouldBlockMainThread)) {
            output.end()
        }
        return try outcome.wait().get()
    }
}
