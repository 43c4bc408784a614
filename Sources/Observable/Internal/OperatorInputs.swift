/// What a two-upstream operator (`combineLatest`, `zip`, `withLatestFrom`, `sample`) posts into its
/// ``Mailbox``: an event of either upstream, or notice that an upstream's subscription is gone.
@usableFromInline
enum BinaryInput<First, Second, Failure: Error> {
    case first(Event<First, Failure>)
    case second(Event<Second, Failure>)
    /// One upstream's child lifetime was disposed: it terminated (after its terminal event was
    /// posted), or its source went away without a terminal event.
    case gone
}

/// What an operator over a collection of same-typed upstreams (`merge`, `combineLatest([…])`,
/// `zip([…])`) posts into its ``Mailbox``: an event tagged with its upstream's position, or notice
/// that an upstream's subscription is gone.
@usableFromInline
enum IndexedInput<Value, Failure: Error> {
    case event(Int, Event<Value, Failure>)
    case gone
}

extension Signal {
    /// Starts this signal as one input of a multi-upstream operator.
    ///
    /// The input runs in its own child of `lifetime`, so that its terminal event (after which a
    /// source disposes the lifetime it was given) ends only this input, not the operator: the
    /// operator's mailbox keeps running and still handles what was queued. When the child is disposed
    /// — the input terminated, its source went away, or the whole subscription ended — the child is
    /// removed from `lifetime` (so long-lived subscriptions don't accumulate children) and `gone` runs.
    /// Operators post a `.gone` input from it and end quietly once every input is gone: nothing can
    /// send any more, and ending releases the pipeline's closures.
    ///
    /// - Returns: `false` when `lifetime` was already disposed (the input was not started).
    @inlinable
    @discardableResult
    func startAsInput(
        in lifetime: CompositeDisposable,
        sink: Sink<Value, Failure>,
        gone: @escaping @Sendable () -> Void
    ) -> Bool {
        let child = CompositeDisposable(partOf: lifetime)
        guard let key = lifetime.add(child) else { return false }
        child.add(
            AnyDisposable { [weak lifetime] in
                lifetime?.remove(key)
                gone()
            })
        start(sink, in: child)
        return true
    }
}
