import TetherEngine

extension SignalConvertible {
    /// Sends this signal's events, then — once it completes — subscribes to `other` and sends its
    /// events (RAC's `concat:`).
    ///
    /// `other` is subscribed only when this signal completes, and not at all if it fails (the error
    /// is sent and ends the result). Disposing the subscription disposes whichever is running.
    ///
    /// ```swift
    /// Signal(values: [1, 2]).concat(Signal(values: [3])).subscribe(next: { print($0) })   // 1 2 3
    /// ```
    /// Marble: `-1-2-|` concat `-3-|` → `-1-2--3-|`
    ///
    /// A chain of `concat`s built one at a time — `chain = chain.concat(next)` in a loop — runs as one
    /// list of signals: each value crosses one stage, however many `concat`s came before it.
    public func concat<Other: SignalConvertible>(
        _ other: Other
    ) -> Signal<Value, Failure> where Other.Value == Value, Other.Failure == Failure {
        let first = signal
        let signals = (first.compositionParts as? PersistentList ?? PersistentList(first)).appending(other.signal)
        return Signal(composedOf: signals, function: #function) { sink, lifetime in
            Signal.startConcatenated(signals.elements, at: 0, sink, in: lifetime)
        }
    }

    /// Ignores this signal's values; when it completes, continues with the signal that `next`
    /// returns (RAC's `then:`). `next` runs once per subscription, at that moment.
    ///
    /// An error of this signal is sent and `next` is not called.
    ///
    /// ```swift
    /// let save = Signal<Void, Never>.empty                // completes once saved
    /// save.then { Signal<String, Never>(value: "3 pages") }.subscribe(next: { print($0) })
    /// ```
    /// Marble: `-a-b-|` then `-x-|` → `------x-|`
    @inlinable
    public func then<Next: SignalConvertible>(
        _ next: @escaping @Sendable () -> Next
    ) -> Signal<Next.Value, Failure> where Next.Failure == Failure {
        uncheckedThen(next)
    }

    /// Ignores this signal's values; when it completes, continues with `next` (RAC's `then:` with a
    /// block returning a signal you already have). Takes the signal itself: a ``Signal`` is not
    /// `Sendable`, so a `@Sendable` closure cannot capture one (<doc:Isolation>).
    ///
    /// An error of this signal is sent and `next` is not subscribed.
    ///
    /// ```swift
    /// let requestAccess = Signal<Void, Never>.empty       // completes once access is granted
    /// let searchText = Subject<String, Never>()
    /// requestAccess.then(searchText).subscribe(next: { print("search for", $0) })
    /// ```
    /// Marble: `-a-b-|` then `-x-|` → `------x-|`
    @inlinable
    public func then<Next: SignalConvertible>(_ next: Next) -> Signal<Next.Value, Failure>
    where Next.Failure == Failure {
        let next = next.signal
        return uncheckedThen { next }
    }

    /// `then(_:)` for Tether's own stages (see ``uncheckedMap(_:function:)``).
    @inlinable
    package func uncheckedThen<Next: SignalConvertible>(
        _ next: @escaping () -> Next, function: StaticString = #function
    ) -> Signal<Next.Value, Failure> where Next.Failure == Failure {
        let first = signal
        return Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                let output = OperatorOutput(sink, lifetime)
                first.startAsStage(in: lifetime) { event in
                    switch event {
                    case .next:
                        return nil
                    case .error(let failure):
                        output.finish(.error(failure))
                        return nil
                    case .completed:
                        return { next().signal.start(sink, in: lifetime) }
                    }
                }
            })
    }

    /// `then(_:)` for a next signal that cannot fail: its values follow this signal's completion, and
    /// the result fails only with this signal's errors.
    ///
    /// ```swift
    /// enum AccessError: Error { case denied }
    /// let requestAccess = Signal<Void, AccessError>.empty
    /// let searchText = MutableProperty("")
    ///
    /// // The ReactiveCocoa tutorials' live search: once access is granted, the search text.
    /// requestAccess.then { searchText }.subscribe(next: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(
        _ next: @escaping @Sendable () -> Next
    ) -> Signal<Next.Value, Failure> where Next.Failure == Never {
        uncheckedThen { next().promoteError(Failure.self) }
    }

    /// `then(_:)` taking the next signal itself, when it cannot fail: the result fails only with this
    /// signal's errors.
    ///
    /// ```swift
    /// enum AccessError: Error { case denied }
    /// let requestAccess = Signal<Void, AccessError>.empty
    /// let searchText = Subject<String, Never>()
    /// requestAccess.then(searchText).subscribe(next: { print("search for", $0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(_ next: Next) -> Signal<Next.Value, Failure>
    where Next.Failure == Never {
        then(next.promoteError(Failure.self))
    }
}

extension SignalConvertible where Failure == Never {
    /// `then(_:)` from a signal that cannot fail to one that can: the result fails with the next
    /// signal's errors.
    ///
    /// ```swift
    /// enum SaveError: Error { case diskFull }
    /// let confirmed = Signal<Void, Never>.empty
    /// confirmed.then { Signal<String, SaveError>(value: "saved") }.subscribe(next: { print($0) }, error: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(
        _ next: @escaping @Sendable () -> Next
    ) -> Signal<Next.Value, Next.Failure> {
        promoteError(Next.Failure.self).then(next)
    }
}

extension Signal {
    /// Sends the events of each of `signals` in order: each is subscribed only once the one
    /// before it has completed (RAC's `+concat:`).
    ///
    /// The first error is sent and ends the result (later signals are never subscribed). **No
    /// signals: completes at once.** The sequence is read once, when this signal is created.
    /// Signals that complete synchronously are chained in a loop, so the stack does not grow with
    /// their number.
    ///
    /// ```swift
    /// let pages = [Signal(values: [1, 2]), Signal(values: [3])]
    /// Signal.concat(pages).subscribe(next: { print($0) })   // 1 2 3
    /// ```
    /// Marble: `a: -1-|`, `b: -2-|` → `-1--2-|`
    @inlinable
    public static func concat<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal
    where Signals.Element: SignalConvertible, Signals.Element.Value == Value, Signals.Element.Failure == Failure {
        Signal<Signal, Failure>(values: signals.map(\.signal)).concat()
    }
}

extension Signal {
    /// Runs `signals[index...]` for one subscription of a chain of `concat(_:)`s: each as a stage that
    /// forwards its values and its error and, when it completes, starts the next; the last straight into
    /// `sink`. The chain's list (a ``PersistentList`` that each `concat` extends) is its annex's parts. A
    /// subscription holds every signal of the list until it ends (the signal it was made from held them too).
    static func startConcatenated(
        _ signals: [Signal], at index: Int, _ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable
    ) {
        if index == signals.count - 1 {
            signals[index].start(sink, in: lifetime)
            return
        }
        let output = OperatorOutput(sink, lifetime)
        signals[index].startAsStage(in: lifetime) { event in
            guard case .completed = event else {
                output.forward(event)
                return nil
            }
            return { startConcatenated(signals, at: index + 1, sink, in: lifetime) }
        }
    }
}
