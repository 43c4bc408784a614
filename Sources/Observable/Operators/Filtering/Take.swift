import TetherEngine

extension SignalConvertible {
    /// Sends the first `count` values, then completes and ends the subscription to the source
    /// (RAC's `take:`). With a count of zero or less it completes at once without subscribing to
    /// the source, as RAC's `take:0` returns `empty`.
    ///
    /// Ending the source works for synchronous infinite sources too:
    ///
    /// ```swift
    /// Signal(values: 1...).take(3).subscribe(next: { print($0) })   // 1, 2, 3 — then completes
    /// ```
    /// Marble: `-1-2-3-4-|` → `-1-2|`  (take(2))
    @inlinable
    public func take(_ count: Int) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            let remaining = StateBox(count)
            if remaining.value <= 0 {
                output.finish(.completed)
                return
            }
            upstream.start(
                Sink { event in
                    guard remaining.value > 0 else { return }
                    switch event {
                    case .next:
                        remaining.value -= 1
                        sink.send(event)
                        if remaining.value == 0 { output.finish(.completed) }
                    case .error, .completed:
                        remaining.value = 0
                        sink.send(event)
                    }
                }, in: lifetime)
        })
    }

    /// Sends the last `count` values when the source completes, then completes (RAC's `takeLast:`).
    /// Nothing is sent before the source completes; if it fails, only the error is sent.
    /// A count of zero or less sends no value.
    ///
    /// ```swift
    /// Signal(values: 1...5).takeLast(2).subscribe(next: { print($0) })   // 4, 5 — when the source completes
    /// ```
    /// Marble: `-1-2-3-|` → `-------(23|)`  (takeLast(2))
    /// - Complexity: O(`count`) memory.
    @inlinable
    public func takeLast(_ count: Int) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            // A ring of the last `count` values; `head` is the oldest once the ring is full.
            var ring: [Value] = []
            var head = 0
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        guard count > 0 else { return }
                        if ring.count < count {
                            ring.append(value)
                        } else {
                            ring[head] = value
                            head += 1
                            if head == count { head = 0 }
                        }
                    case .error(let failure):
                        ring = []
                        sink.send(.error(failure))
                    case .completed:
                        let values = ring
                        ring = []
                        for offset in values.indices {
                            if output.isFinished { return }
                            output.send(values[(head + offset) % values.count])
                        }
                        output.finish(.completed)
                    }
                }, in: lifetime)
        })
    }

    /// Sends values while `predicate` holds; completes at the first value that fails it (which is
    /// not sent) and ends the subscription to the source (RAC's `takeWhileBlock:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).take(while: { $0 < 3 }).subscribe(next: { print($0) })   // 1, 2 — then completes
    /// ```
    /// Marble: `-1-2-5-1-|` → `-1-2-|`
    @inlinable
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            var taking = true
            upstream.start(
                Sink { event in
                    guard taking else { return }
                    switch event {
                    case .next(let value):
                        if predicate(value) {
                            sink.send(event)
                        } else {
                            taking = false
                            output.finish(.completed)
                        }
                    case .error, .completed:
                        taking = false
                        sink.send(event)
                    }
                }, in: lifetime)
        })
    }

    /// Forwards the source until `trigger` sends a value or completes, then completes and ends
    /// both subscriptions (RAC's `takeUntil:`).
    ///
    /// The trigger is subscribed first: if it fires during subscription, the result completes at
    /// once and the source is never subscribed. As in RAC 2.5, an error from the trigger is not a
    /// signal to stop: it is ignored and the source keeps being forwarded. The source and the
    /// trigger may send on different threads; the result's events stay serialized.
    ///
    /// ```swift
    /// let ticks = Signal<Int, Never>.interval(.seconds(1), on: QueueScheduler.main)
    /// let stop = Subject<Void, Never>()
    /// ticks.take(until: stop)   // e.g. a view model's `deallocated`
    /// ```
    /// Marble: source `-1-2-3-4-|`, trigger `-----x` → `-1-2-|`
    @inlinable
    public func take<Trigger: SignalConvertible>(until trigger: Trigger) -> Signal<Value, Failure> {
        let upstream = signal
        let triggerSignal = trigger.signal
        return Signal(unsafeStart: { sink, lifetime in
            // `.second(.completed)`: the trigger fired; `.gone`: the source went away without a terminal event.
            let output = OperatorOutput(sink, lifetime)
            let mailbox = Mailbox<BinaryInput<Value, Never, Failure>>(lifetime: lifetime) { input in
                switch input {
                case .first(let event): output.forward(event)
                case .second: output.finish(.completed)
                case .gone: output.end()
                }
            }
            let triggerLifetime = CompositeDisposable(partOf: lifetime)
            guard let triggerKey = lifetime.add(triggerLifetime) else { return }
            triggerSignal.start(
                Sink { event in
                    switch event {
                    case .next, .completed:
                        mailbox.post(.second(.completed))
                    case .error:
                        // RAC 2.5 ignores a failing trigger: only the trigger's subscription ends.
                        lifetime.remove(triggerKey)
                    }
                }, in: triggerLifetime)
            if lifetime.isDisposed { return }
            // In a child lifetime, as every input: a source that completes and then disposes its lifetime
            // must not close the mailbox before the completion queued in it is handled.
            upstream.startAsInput(
                in: lifetime, sink: Sink { event in mailbox.post(.first(event)) }, gone: { mailbox.post(.gone) })
        })
    }

    /// Sends values until `predicate` returns `true` for one; that value is not sent, the result
    /// completes and the subscription to the source ends (RAC's `takeUntilBlock:`). The opposite of
    /// ``take(while:)``; named apart from ``take(until:)``, which takes a trigger signal.
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).take(untilTrue: { $0 > 3 })
    ///     .subscribe(next: { print($0) })   // 1, 2 — then completes
    /// ```
    /// Marble: `-1-2-5-1-|` → `-1-2-|`
    @inlinable
    public func take(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        take(while: { !predicate($0) })
    }

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
    /// cached.send("cached")   // prints cached
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
