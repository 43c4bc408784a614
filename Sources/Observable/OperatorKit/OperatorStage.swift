import TetherEngine

extension Signal {
    /// Starts this signal as the current stage of a sequential operator (`concat`, `then`, `catch`,
    /// `retry`, `repeat`): one stage runs at a time, and the operator moves on to the next when it ends.
    ///
    /// The stage runs in its own child of `lifetime`, so that its terminal event (after which a source
    /// disposes the lifetime it was given) ends only the stage. `handle` gets every event of the stage:
    /// it sends values on, and for a terminal event either ends the operator (through its
    /// ``OperatorOutput``) and returns `nil`, or returns what starts the next stage. That runs once the
    /// stage is removed from `lifetime`, and only while the subscription still runs.
    ///
    /// - Returns: `false` when `lifetime` was already disposed (the stage was not started).
    @inlinable
    @discardableResult
    func startAsStage(
        in lifetime: CompositeDisposable,
        _ handle: @escaping (Event<Value, Failure>) -> (() -> Void)?
    ) -> Bool {
        let child = CompositeDisposable(partOf: lifetime)
        guard let key = lifetime.add(child) else { return false }
        start(
            Sink { event in
                guard let moveOn = handle(event) else { return }
                lifetime.remove(key)
                if lifetime.isDisposed { return }
                moveOn()
            }, in: child)
        return true
    }
}
