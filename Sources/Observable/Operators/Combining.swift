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
    @inlinable
    public func concat<Other: SignalConvertible>(
        _ other: Other
    ) -> Signal<Value, Failure> where Other.Value == Value, Other.Failure == Failure {
        let first = signal
        let second = other.signal
        return Signal(unsafeStart: { sink, lifetime in
            let output = OperatorOutput(sink, lifetime)
            first.startAsStage(in: lifetime) { event in
                guard case .completed = event else {
                    output.forward(event)
                    return nil
                }
                return { second.start(sink, in: lifetime) }
            }
        })
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

    /// Sends the values of this signal and `other` as they arrive (RAC's `merge:`).
    ///
    /// Completes when both have completed; fails as soon as either fails (and disposes the other).
    /// `Signal.merge(_:)` merges any number of signals.
    ///
    /// ```swift
    /// let taps = Subject<String, Never>()
    /// let keys = Subject<String, Never>()
    /// taps.merge(with: keys).subscribe(next: { print($0) })
    /// taps.send("tap"); keys.send("enter")   // tap, enter
    /// ```
    /// Marble: `-a---b-|` merge `--1-2---|` → `-a1--2b-|` (all values in arrival order)
    @inlinable
    public func merge<Other: SignalConvertible>(
        with other: Other
    ) -> Signal<Value, Failure> where Other.Value == Value, Other.Failure == Failure {
        Signal.mergeSignals([signal, other.signal])
    }

    /// Prepends `value`: sends it on subscription, then this signal's events (RAC's `startWith:`).
    ///
    /// ```swift
    /// let searchText = Subject<String, Never>()
    /// searchText.startWith("").subscribe(next: { print("query:", $0) })   // query: (empty) first
    /// ```
    /// Marble: `--a--b-|` → `x-a--b-|`
    @inlinable
    public func startWith(_ value: Value) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            sink.send(.next(value))
            if lifetime.isDisposed { return }
            upstream.start(sink, in: lifetime)
        })
    }

    /// Pairs each value of this signal with the latest value of `other` (ReactiveX's
    /// `withLatestFrom`).
    ///
    /// Values of this signal that arrive before `other` has sent anything are dropped. `other` is
    /// subscribed first, so a value it sends on subscription is already there for this signal's
    /// first value. The result completes when this signal completes (the completion of `other` only
    /// freezes its latest value) and fails when either fails.
    ///
    /// ```swift
    /// let submitTapped = Subject<Void, Never>(), formContents = Subject<String, Never>()
    /// submitTapped.withLatestFrom(formContents)
    ///     .subscribe(next: { _, form in print("sending", form) })
    /// ```
    /// Marble:
    /// ```text
    /// self:   -a---b--c-|
    /// other:  --1----2---
    /// result: -----(b,1)--(c,2)-|
    /// ```
    @inlinable
    public func withLatestFrom<Other: SignalConvertible>(
        _ other: Other
    ) -> Signal<(Value, Other.Value), Failure> where Other.Failure == Failure {
        let source = signal
        let latestSource = other.signal
        // The latest source starts first: a value it sends synchronously is there for the first value.
        return Signal.combining(
            source, latestSource, startingSecond: true, logic: WithLatestFrom<Value, Other.Value, Failure>())
    }

    /// Sends each value together with the value before it; the first value is paired with
    /// `initial` (RAC's `combinePreviousWithStart:reduce:`; reduce the pairs with `map`).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 3]).combinePrevious(0).map { $1 - $0 }   // 1, 1, 1
    /// ```
    /// Marble: `-1-2-3-|` with `0` → `-(0,1)-(1,2)-(2,3)-|`
    @inlinable
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            var previous = initial
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        let pair = (previous, value)
                        previous = value
                        sink.send(.next(pair))
                    case .error(let failure):
                        sink.send(.error(failure))
                    case .completed:
                        sink.send(.completed)
                    }
                }, in: lifetime)
        })
    }

    /// Sends the latest value of this signal each time `sampler` sends a value (RAC's `sample:`).
    ///
    /// Nothing is sent for a sampler value that arrives before this signal has sent anything; the
    /// same value is sent again if the sampler fires twice without a new value in between. The
    /// result completes when either signal completes and fails when either fails.
    ///
    /// ```swift
    /// let position = Subject<Int, Never>()
    /// let tick = Subject<Void, Never>()
    /// position.sample(on: tick).subscribe(next: { print($0) })
    /// position.send(1); position.send(2)
    /// tick.send()   // 2
    /// tick.send()   // 2
    /// ```
    /// Marble:
    /// ```text
    /// self:    -1-2----3---
    /// sampler: --x---x---xx
    /// result:  --1---2---33
    /// ```
    @inlinable
    public func sample<Sampler: SignalConvertible>(
        on sampler: Sampler
    ) -> Signal<Value, Failure> where Sampler.Failure == Failure {
        let source = signal
        let trigger = sampler.signal
        return Signal.combining(source, trigger, logic: SampleOn<Value, Sampler.Value, Failure>())
    }
}

extension Signal {
    /// Sends the values of all `signals` as they arrive (RAC's `+merge:`).
    ///
    /// Completes when all have completed; fails as soon as one fails (the others are disposed, and
    /// signals not yet subscribed are never subscribed). **No signals: completes at once.** The
    /// signals are subscribed in order; the collection is read once, when this signal is created.
    ///
    /// ```swift
    /// let mouse = Subject<String, Never>(), keyboard = Subject<String, Never>()
    /// let sources: [Signal<String, Never>] = [mouse.signal, keyboard.signal]
    /// Signal.merge(sources).subscribe(next: { print($0) })
    /// ```
    /// Marble: `a: -1---3-|`, `b: --2-----|` → `-12--3--|`
    @inlinable
    public static func merge<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal
    where Signals.Element: SignalConvertible, Signals.Element.Value == Value, Signals.Element.Failure == Failure {
        mergeSignals(signals.map(\.signal))
    }

    /// Sends the values of all the given signals as they arrive (RAC's `+merge:`), with the
    /// same rules as the form that takes a collection.
    ///
    /// ```swift
    /// let saveTapped = Subject<Void, Never>(), autosave = Subject<Void, Never>()
    /// let quitRequested = Subject<Void, Never>()
    /// Signal.merge(saveTapped, autosave, quitRequested).subscribe(next: { print("saving") })
    /// ```
    /// Marble: `a: -1---|`, `b: --2-|`, `c: ---3-|` → `-123--|`
    @inlinable
    public static func merge<Source: SignalConvertible>(
        _ signals: Source...
    ) -> Signal where Source.Value == Value, Source.Failure == Failure {
        mergeSignals(signals.map(\.signal))
    }

    @inlinable
    static func mergeSignals(_ sources: [Signal]) -> Signal {
        combining(sources, logic: MergeMany.init)
    }
}

/// The logic of ``SignalConvertible/withLatestFrom(_:)``: one per subscription, driven by its mailbox.
@usableFromInline
final class WithLatestFrom<Value, Latest, Failure: Error>: TwoInputLogic {
    @usableFromInline @exclusivity(unchecked) var latest: Latest?

    @inlinable
    init() {}

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ input: BinaryInput<Value, Latest, Failure>, output: OperatorOutput<(Value, Latest), Failure>) {
        switch input {
        case .first(.next(let value)):
            if let latest { output.send((value, latest)) }
        case .second(.next(let value)):
            latest = value
        case .first(.completed):
            output.finish(.completed)
        case .second(.completed), .first(.error), .second(.error), .gone:
            break  // the other's completion changes nothing; the rest is the scaffold's
        }
    }
}

/// The logic of ``SignalConvertible/sample(on:)``: one per subscription, driven by its mailbox.
@usableFromInline
final class SampleOn<Value, Trigger, Failure: Error>: TwoInputLogic {
    @usableFromInline @exclusivity(unchecked) var latest: Value?

    @inlinable
    init() {}

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ input: BinaryInput<Value, Trigger, Failure>, output: OperatorOutput<Value, Failure>) {
        switch input {
        case .first(.next(let value)):
            latest = value
        case .second(.next):
            if let latest { output.send(latest) }
        case .first(.completed), .second(.completed):
            output.finish(.completed)
        case .first(.error), .second(.error), .gone:
            break  // the scaffold's
        }
    }
}

/// The logic of ``Signal/merge(_:)``: one per subscription, driven by its mailbox.
@usableFromInline
final class MergeMany<Value, Failure: Error>: ManyInputLogic {
    @usableFromInline @exclusivity(unchecked) var running: InputCount

    @inlinable
    init(count: Int) {
        running = InputCount(count)
    }

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ index: Int, _ event: Event<Value, Failure>, output: OperatorOutput<Value, Failure>) {
        switch event {
        case .next(let value):
            output.send(value)
        case .completed:
            if running.finishOne() { output.finish(.completed) }
        case .error:
            break  // the scaffold's
        }
    }
}
