extension SignalConvertible {
    /// Sends only the values that satisfy `isIncluded` (RAC's `filter:`).
    ///
    /// ```swift
    /// Signal(values: 1...6).filter { $0.isMultiple(of: 2) }   // 2, 4, 6
    /// ```
    /// Marble: `-1-2-3-4-|` → `---2---4-|`
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        uncheckedFilter(isIncluded)
    }

    /// `filter(_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package func uncheckedFilter(
        _ isIncluded: @escaping (Value) -> Bool, function: StaticString = #function
    ) -> Signal<Value, Failure> {
        // Linked so that releasing a chain of many filters does not nest one release per stage.
        let upstream = signal.linkedForDeepChains
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                switch sink {
                case .values(let next):
                    // As in `map`: values on as values to a values-only subscriber.
                    upstream.start(.values { value in if isIncluded(value) { next(value) } }, in: lifetime)
                case .events(let action):
                    upstream.start(
                        Sink { event in
                            if case .next(let value) = event, !isIncluded(value) { return }
                            action(event)
                        }, in: lifetime)
                }
            })
    }

    /// Drops every value and forwards only the terminal event (RAC's `ignoreValues`).
    ///
    /// The value type is kept, as in RAC, so the result composes with the source's siblings.
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let upload = Signal<Void, IOError>.empty
    /// upload.ignoreValues().subscribe(completed: { print("uploaded") })
    /// ```
    /// Marble: `-1-2-3-|` → `-------|`
    @inlinable
    public func ignoreValues() -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            upstream.start(
                Sink { event in
                    if case .next = event { return }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Drops a value when `isEquivalent(previous, value)` says it equals the value sent before it
    /// (RAC's `distinctUntilChanged`, with your own notion of equality). The first value is always
    /// sent.
    ///
    /// ```swift
    /// struct User { var id: Int; var name: String }
    /// let users = Subject<User, Never>()
    /// users.distinctUntilChanged(by: { $0.id == $1.id })
    /// ```
    /// Marble: `-a-a-b-b-a-|` → `-a---b---a-|`
    @inlinable
    public func distinctUntilChanged(
        by isEquivalent: @escaping @Sendable (Value, Value) -> Bool
    ) -> Signal<Value, Failure> {
        uncheckedDistinctUntilChanged(by: isEquivalent)
    }

    /// `distinctUntilChanged(by:)` for Tether's own stages (see ``uncheckedMap(_:function:)``).
    @inlinable
    package func uncheckedDistinctUntilChanged(
        by isEquivalent: @escaping (Value, Value) -> Bool, function: StaticString = #function
    ) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let previous = StateBox<Value?>(nil)
                upstream.start(
                    Sink { event in
                        if case .next(let value) = event {
                            if let last = previous.value, isEquivalent(last, value) { return }
                            previous.value = value
                        }
                        sink.send(event)
                    }, in: lifetime)
            })
    }

    /// Drops the first `count` values (RAC's `skip:`). A count of zero or less skips nothing.
    ///
    /// ```swift
    /// Signal(values: 1...5).skip(2)   // 3, 4, 5
    /// ```
    /// Marble: `-1-2-3-4-|` → `-----3-4-|`
    @inlinable
    public func skip(_ count: Int) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let remaining = StateBox(count)
            upstream.start(
                Sink { event in
                    if remaining.value > 0, case .next = event {
                        remaining.value -= 1
                        return
                    }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    /// Sends the first `count` values, then completes and ends the subscription to the source
    /// (RAC's `take:`). With a count of zero or less it completes at once without subscribing to
    /// the source, as RAC's `take:0` returns `empty`.
    ///
    /// Ending the source works for synchronous infinite sources too:
    ///
    /// ```swift
    /// Signal(values: 1...).take(3)   // 1, 2, 3, then completes
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
    /// Signal(values: 1...5).takeLast(2)   // 4, 5 (when the source completes)
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
    /// Signal(values: [1, 2, 5, 1]).take(while: { $0 < 3 })   // 1, 2, then completes
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

    /// Drops values while `predicate` holds; from the first value that fails it on, sends every
    /// value (RAC's `skipWhileBlock:`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).skip(while: { $0 < 3 })   // 5, 1
    /// ```
    /// Marble: `-1-2-5-1-|` → `-----5-1-|`
    @inlinable
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            var skipping = true
            upstream.start(
                Sink { event in
                    if skipping, case .next(let value) = event {
                        if predicate(value) { return }
                        skipping = false
                    }
                    sink.send(event)
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
}

extension SignalConvertible where Value: Equatable {
    /// Drops every value equal to `value` (RAC's `ignore:`).
    ///
    /// ```swift
    /// Signal(values: ["a", "", "b"]).ignore("")   // "a", "b"
    /// ```
    /// Marble: `-a-x-b-x-|` → `-a---b---|`  (ignore(x))
    @inlinable
    public func ignore(_ value: Value) -> Signal<Value, Failure> {
        uncheckedFilter { $0 != value }
    }

    /// Drops a value equal to the value sent before it (RAC's `distinctUntilChanged`).
    /// The first value is always sent.
    ///
    /// ```swift
    /// Signal(values: [1, 1, 2, 2, 1]).distinctUntilChanged()   // 1, 2, 1
    /// ```
    /// Marble: `-1-1-2-2-1-|` → `-1---2---1-|`
    @inlinable
    public func distinctUntilChanged() -> Signal<Value, Failure> {
        uncheckedDistinctUntilChanged(by: ==)
    }
}
