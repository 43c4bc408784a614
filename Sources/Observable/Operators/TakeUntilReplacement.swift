extension SignalConvertible {
    /// Forwards this signal until `replacement` sends its first event — a value, an error or
    /// completion — then forwards only `replacement`, including its terminal event (RAC's
    /// `takeUntilReplacement:`).
    ///
    /// As in RAC 2.5:
    /// - `replacement` is subscribed first: if it sends during subscription, this signal is never
    ///   subscribed.
    /// - When `replacement` sends, the subscription to this signal is disposed before the event is
    ///   forwarded; nothing this signal sends afterwards arrives.
    /// - This signal's error is forwarded (and ends everything), but its completion is not: the
    ///   result then waits for `replacement`.
    ///
    /// The two signals may send on different threads; the result's events stay serialized.
    ///
    /// ```swift
    /// let cached = Subject<String, Never>()
    /// let fresh = Subject<String, Never>()
    /// cached.take(untilReplacement: fresh).subscribe(next: { print($0) })
    /// cached.send("cached")   // cached
    /// fresh.send("fresh")     // fresh
    /// cached.send("stale")    // (nothing)
    /// ```
    /// Marble: self `-1-2-|`, replacement `-----a-b-|` → `-1-2-a-b-|`
    @inlinable
    public func take<Replacement: SignalConvertible>(
        untilReplacement replacement: Replacement
    ) -> Signal<Value, Failure> where Replacement.Value == Value, Replacement.Failure == Failure {
        let upstream = signal
        let replacementSignal = replacement.signal
        return Signal(unsafeStart: { sink, lifetime in
            // The receiver's lifetime exists before anything starts, so that the replacement can end
            // it even while the receiver has not been subscribed yet.
            let receiverLifetime = CompositeDisposable(partOf: lifetime)
            let output = OperatorOutput(sink, lifetime)
            var replaced = false
            var live = InputCount(2)
            let mailbox = Mailbox<BinaryInput<Value, Value, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .first(let event):
                    if replaced { return }
                    // RAC concatenates the receiver with `never`: its completion is not forwarded.
                    if case .completed = event { return }
                    output.forward(event)
                case .second(let event):
                    if !replaced {
                        replaced = true
                        receiverLifetime.dispose()
                    }
                    output.forward(event)
                case .gone:
                    if live.finishOne() { output.end() }
                }
            }
            guard let receiverKey = lifetime.add(receiverLifetime) else { return }
            receiverLifetime.add(
                AnyDisposable { [weak lifetime] in
                    lifetime?.remove(receiverKey)
                    mailbox.post(.gone)
                })
            guard
                replacementSignal.startAsInput(
                    in: lifetime, sink: Sink { mailbox.post(.second($0)) }, gone: { mailbox.post(.gone) })
            else { return }
            if receiverLifetime.isDisposed { return }
            upstream.start(Sink { mailbox.post(.first($0)) }, in: receiverLifetime)
        })
    }
}
