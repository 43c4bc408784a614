import TetherEngine

/// A cold stream of events: a recipe that runs once for each subscription (RAC's `RACSignal`).
///
/// Nothing happens until someone subscribes; each subscription runs the recipe anew and receives
/// `next* (error | completed)?`. `Failure` is `Never` for signals that cannot fail.
///
/// ```swift
/// let numbers = Signal<Int, Never> { observer in
///     observer.send(1)
///     observer.send(2)
///     observer.sendCompleted()
///     return nil
/// }
/// numbers.map { $0 * 10 }.subscribe(next: { print($0) }, completed: { print("done") })
/// // 10
/// // 20
/// // done
/// ```
///
/// A subscription lives until its terminal event, until it is disposed, or until its subscriber goes
/// away (RAC 2.5's rule). A recipe that drops its ``Observer`` can never send again, so a closure
/// subscriber's subscription then ends at once; a subscriber that someone else holds — a subject
/// subscribed with `subscribe(_:)`, an ``Observer`` you keep — keeps its subscriptions until it
/// terminates or goes away, and terminating disposes every subscription made with it
/// (<doc:ComingFromReactiveCocoa>).
///
/// `Signal` is a value holding closures, so it is not `Sendable`: build pipelines where they are
/// subscribed. The subjects and ``Observer`` are the thread-safe pieces.
public struct Signal<Value, Failure: Error>: SignalConvertible {
    /// Starts one subscription: deliver events to the sink, register cleanups in the lifetime.
    ///
    /// Contract for internal sources built with this initializer: events reach the sink serialized
    /// and in grammar, and after the lifetime is disposed nothing more is sent.
    @usableFromInline
    package let startHandler: (Sink<Value, Failure>, CompositeDisposable) -> Void

    /// What the signal carries besides its start: its debug info, the plain subject whose subscriptions it
    /// starts, or the parts an operator composed it of (see ``SignalAnnex``). One word: a signal stays 24 bytes.
    @usableFromInline
    package let annex: SignalAnnex?

    /// What the debugging tools know about this signal (its name, the operator that made it, its inputs);
    /// `nil` unless it was named or made while ``TetherDebug`` tracked pipelines.
    @inlinable
    package var debugInfo: SignalDebugInfo? { annex?.debugInfo }

    /// The plain subject's core whose `signal` this is (see ``SignalAnnex``), as the subject handed it over;
    /// `nil` for every other signal. Not retained: valid while this signal is. `map`'s start reads it for
    /// every subscription, and a retained reference cost W3 a retain and a release of the subject's core
    /// per cycle (callgrind).
    @inlinable @inline(__always)
    package var plainSubjectSource: Unmanaged<AnyObject & Sendable>? {
        guard let annex else { return nil }
        return annex.plainSubject
    }

    /// `function` and `file` name the operator (`map(_:)`) for the debugging tools; they cost nothing
    /// unless ``TetherDebug`` is tracking.
    @inlinable
    package init(
        unsafeStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void,
        function: StaticString = #function, file: StaticString = #fileID
    ) {
        self.startHandler = startHandler
        annex = Self.annexOfNewSignal(function: function, file: file)
    }

    /// The `signal` of a plain subject: `init(unsafeStart:function:file:)`, and while the debugging tools
    /// track nothing, the subject's core as ``plainSubjectSource`` (a stage right below it, `map`, may then
    /// join the subject with one object of its own instead of a sink's closure: see ``SignalAnnex``).
    @inlinable
    package init(
        plainSubject source: AnyObject & Sendable, function: StaticString = #function, file: StaticString = #fileID,
        unsafeStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void
    ) {
        self.startHandler = startHandler
        if DebugSwitch.needsSignalTracking {
            annex = Self.debugAnnex(function: function, file: file)
        } else {
            annex = SignalAnnex(plainSubject: source)
        }
    }

    /// `init(unsafeStart:function:file:)` with the operator's name first, for stages whose start closure is
    /// long (the `unchecked…` twins of the public operators pass the public operator's name).
    @inlinable
    package init(
        function: StaticString, file: StaticString = #fileID,
        unsafeStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void
    ) {
        self.init(unsafeStart: startHandler, function: function, file: file)
    }

    /// The annex of a signal being made by `function`: its debug info while the debugging tools track,
    /// otherwise none. For an operator that makes its start closure after (see ``init(annex:unsafeStart:)``);
    /// call it after reading `signal` of each input, as the other initializers are called: reading a named
    /// input is what notes it as an input of the signal made next, and may turn tracking on.
    @inlinable
    static func annexOfNewSignal(function: StaticString, file: StaticString = #fileID) -> SignalAnnex? {
        // Written out, not `debugAnnex(function:file:)`: calling it here, even always inlined, cost W8 (a cold
        // signal made and subscribed) ten instructions per subscription (callgrind: 51.45 → 51.85 M).
        if DebugSwitch.needsSignalTracking {
            return SignalDebugInfo.made(by: function, in: file, type: Self.self).map(SignalAnnex.init(debugInfo:))
        }
        return nil
    }

    /// The debug info of a signal being made by `function` in `file`, as an annex, for the initializers to
    /// call once they have found the debugging tools tracking (``DebugSwitch/needsSignalTracking``).
    @inlinable
    static func debugAnnex(function: StaticString, file: StaticString) -> SignalAnnex? {
        SignalDebugInfo.made(by: function, in: file, type: Self.self).map(SignalAnnex.init(debugInfo:))
    }

    /// A signal with an annex decided before its start closure was made: ``annexOfNewSignal(function:file:)``
    /// (`map`), or its upstream's (a signal linked for deep chains). `map` reads the flag before its start
    /// closure captures the upstream: read after, in the initializer, the flag's load sat between the
    /// capture's retains and the upstream's releases, which the optimizer then kept (W3: a retain and a release
    /// of each of the upstream's two references per subscription). Internal: the annex must fit the signal's
    /// type (a plain subject's core only on a signal of that subject's `Value` and `Failure`).
    @inlinable
    init(
        annex: SignalAnnex?, unsafeStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void
    ) {
        self.startHandler = startHandler
        self.annex = annex
    }

    /// A signal made of other signals by an operator that flattens chains of itself (`concat`, `catch`):
    /// while the debugging tools track nothing, its annex keeps `parts`, which the same operator applied to
    /// this signal reads back through ``compositionParts`` (see ``SignalComposition``).
    init(
        composedOf parts: AnyObject, function: StaticString, file: StaticString = #fileID,
        unsafeStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void
    ) {
        self.startHandler = startHandler
        if DebugSwitch.needsSignalTracking {
            annex = Self.debugAnnex(function: function, file: file)
        } else {
            annex = SignalAnnex(composition: SignalComposition(parts))
        }
    }

    /// The parts this signal is composed of, if an operator that flattens chains of itself made it while
    /// the debugging tools tracked nothing (see ``SignalComposition``); `nil` for every other signal.
    var compositionParts: AnyObject? { annex?.compositionParts }

    /// A stage of the debugging tools (`named(_:)`), described by `debugInfo`.
    init(
        recordingStart startHandler: @escaping (Sink<Value, Failure>, CompositeDisposable) -> Void,
        debugInfo: SignalDebugInfo
    ) {
        self.startHandler = startHandler
        self.annex = SignalAnnex(debugInfo: debugInfo)
    }

    /// Creates a signal from a recipe that runs once per subscription (RAC's `createSignal:`).
    ///
    /// The recipe gets a thread-safe ``Observer`` and returns what to dispose when the subscription
    /// ends (by a terminal event or by `dispose()`), or `nil`.
    ///
    /// ```swift
    /// let ticks = Signal<Int, Never> { observer in
    ///     let source = DispatchSource.makeTimerSource()
    ///     var count = 0
    ///     source.setEventHandler { count += 1; observer.send(count) }
    ///     source.schedule(deadline: .now(), repeating: .seconds(1))
    ///     source.resume()
    ///     nonisolated(unsafe) let timer = source   // DispatchSource is thread-safe but not Sendable
    ///     return AnyDisposable { timer.cancel() }
    /// }
    /// ```
    @inlinable
    public init(_ recipe: @escaping @Sendable (Observer<Value, Failure>) -> (any Disposable)?) {
        self = Signal.uncheckedCreate(recipe)
    }

    /// Creates a signal from `upstream` and a recipe that subscribes to it, once per subscription: how to
    /// write an operator of your own. The recipe receives `upstream` as a parameter — a `@Sendable` recipe
    /// cannot capture a ``Signal`` (<doc:Isolation>) — and keeps its per-subscription state in locals:
    /// the closures it passes to `subscribe` run one event at a time.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// extension SignalConvertible where Value == String, Failure == Never {
    ///     /// Numbers the values of each subscription: "1. a", "2. b", …
    ///     func numbered() -> Signal<String, Never> {
    ///         Signal(wrapping: self) { upstream, observer in
    ///             var count = 0                      // one counter per subscription
    ///             return upstream.subscribe(
    ///                 next: { text in
    ///                     count += 1
    ///                     observer.send("\(count). \(text)")
    ///                 },
    ///                 completed: { observer.sendCompleted() })
    ///         }
    ///     }
    /// }
    ///
    /// func printNumbered() {
    ///     Signal(values: ["a", "b"]).numbered().subscribe(next: { print($0) })   // 1. a, 2. b
    /// }
    /// ```
    @inlinable
    public init<Upstream: SignalConvertible>(
        wrapping upstream: Upstream,
        _ recipe:
            @escaping @Sendable (Signal<Upstream.Value, Upstream.Failure>, Observer<Value, Failure>) -> (
                any Disposable
            )?
    ) {
        let upstream = upstream.signal
        self = Signal.uncheckedCreate { observer in recipe(upstream, observer) }
    }

    /// `init(_:)` for Tether's own sources, whose recipes hold state the compiler cannot prove `Sendable`
    /// (a control its bridge reads on the control's own thread, per-subscription state): see
    /// ``SignalConvertible/uncheckedMap(_:function:)``.
    @inlinable
    package static func uncheckedCreate(
        _ recipe: @escaping (Observer<Value, Failure>) -> (any Disposable)?
    ) -> Signal {
        Signal(
            unsafeStart: { sink, lifetime in
                let observer = Observer(sink: sink, lifetime: lifetime)
                lifetime.add(recipe(observer))
            }, function: "init(_:)", file: "")
    }

    /// Returns `self`.
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// let same = signal.signal
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> {
        // An operator reads `signal` of each input just before it makes its own signal: while tracking,
        // that is how the new signal learns its inputs (see `SignalDebugInfo.made(by:in:type:)`).
        // The annex, not `debugInfo`: telling debug info from a subject takes a type test, which made this
        // getter too large to inline (W5's inner signals: a call and two retains per read, callgrind).
        if _slowPath(annex != nil) { annex.unsafelyUnwrapped.noteReadIfTracking() }
        return self
    }

    /// Starts one subscription for a subscriber (`subscribe`): as ``start(_:in:)``, without the
    /// deep-chain trampoline. A subscriber's own start is never a boundary: in a fully inlined pipeline
    /// (`Signal(values:)` subscribed where it is made) the optimizer keeps the sink's and the recipe's
    /// contexts on the stack, which a start that may queue its work (so that they escape) would forbid.
    @inlinable
    package func startSubscription(_ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable) {
        // While the graph is on, the stage is registered (and is the parent of the stages it starts).
        // Only the debug info crosses into out-of-line code: handing it `sink`, the handler or the
        // lifetime, or calling the handler with another sink, would make them escape — every
        // subscription a heap allocation (a lifetime that never escapes lives on the stack) and every
        // event an indirect call, even while it is off. Events are recorded by named stages
        // (`named(_:)`), whose closures escape anyway.
        var node: LiveSubscriptionNode?
        if DebugSwitch.needsSignalTracking {
            node = LiveSubscriptionNode.starting(debugInfo)
            if let node { lifetime.add { node.didEnd() } }
        }
        startHandler(sink, lifetime)
        if _slowPath(node != nil) { node.unsafelyUnwrapped.didStart() }
    }

    /// Starts one subscription from inside another signal's start or delivery (an operator starting its
    /// upstream), through the deep-chain trampoline (see `DeepChainTrampoline`): one thread-local read
    /// per start; the outermost such start on the thread is the root, and every `checkMask + 1`-th
    /// nested start is a boundary.
    @inlinable
    package func start(_ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable) {
        let trampoline = DeepChainTrampoline.current()
        let depth = trampoline.pointee.depth
        if _slowPath(depth & DeepChainTrampoline.checkMask == DeepChainTrampoline.checkMask) {
            startAtBoundary(sink, in: lifetime, trampoline: trampoline)
            return
        }
        trampoline.pointee.depth = depth &+ 1
        if depth == 0 { trampoline.pointee.rootStack = DeepChainTrampoline.stackAddress() }
        startSubscription(sink, in: lifetime)
        if depth == 0 && _slowPath(trampoline.pointee.hasWork) { DeepChainTrampoline.drain(trampoline) }
        trampoline.pointee.depth = depth
    }

    /// A start deep in a chain: its sink becomes a boundary, and the start itself is queued for the
    /// thread's root if the stack has grown too deep.
    @usableFromInline
    func startAtBoundary(
        _ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable,
        trampoline: UnsafeMutablePointer<DeepChainTrampoline>
    ) {
        let (boundarySink, upstreamLifetime) = sink.deepChainBoundary(in: lifetime)
        if DeepChainTrampoline.mustDefer(trampoline) {
            DeepChainTrampoline.enqueue(trampoline) { self.startSubscription(boundarySink, in: upstreamLifetime) }
        } else {
            let depth = trampoline.pointee.depth
            trampoline.pointee.depth = depth &+ 1
            startSubscription(boundarySink, in: upstreamLifetime)
            trampoline.pointee.depth = depth
        }
    }
}

extension Signal {
    /// A signal that sends `value`, then completes (RAC's `+return:`).
    ///
    /// ```swift
    /// Signal<Int, Never>(value: 7).subscribe(next: { print($0) })   // 7
    /// ```
    @inlinable
    @_disfavoredOverload  // so that `Signal { try await f() }` picks the async initializer, not this one
    public init(value: Value) {
        self.init(unsafeStart: Self.sendingValue(value))
    }

    /// A signal that fails at once with `error` (RAC's `+error:`).
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// Signal<Int, MyError>(error: .boom).subscribe(error: { print($0) })   // boom
    /// ```
    @inlinable
    public init(error: Failure) {
        self.init(unsafeStart: { sink, lifetime in
            sink.send(.error(error))
            lifetime.dispose()
        })
    }

    /// A signal that sends every element of `values` in order, then completes
    /// (RAC's `rac_sequence.signal`, delivered synchronously on subscription).
    ///
    /// Disposing the subscription (for example by `take(2)`) stops the iteration, so infinite
    /// sequences are fine.
    ///
    /// ```swift
    /// Signal<Int, Never>(values: 1...3).subscribe(next: { print($0) })   // 1 2 3
    /// Signal<Int, Never>(values: 1...).take(2).collect().subscribe(next: { print($0) })   // [1, 2]
    /// ```
    @inlinable
    public init<S: Sequence>(values: S) where S.Element == Value {
        self.init(unsafeStart: Self.sendingValues(values))
    }

    /// A signal that completes at once without sending a value (RAC's `+empty`).
    ///
    /// ```swift
    /// Signal<Int, Never>.empty.subscribe(completed: { print("done") })   // done
    /// ```
    @inlinable
    public static var empty: Signal {
        Signal(unsafeStart: { sink, lifetime in
            sink.send(.completed)
            lifetime.dispose()
        })
    }

    /// A signal that never sends anything (RAC's `+never`). Its subscriptions hold nothing.
    ///
    /// As in RAC 2.5, nothing can ever be sent to its subscriber, so a subscription with a closure
    /// subscriber ends quietly at once (no event; it frees what it holds) and a `never` input does not keep
    /// an operator alive: `merge(a, .never)` ends when `a` goes away. A subscriber held elsewhere (a subject
    /// subscribed as an observer) keeps its subscription until it terminates, as for any recipe.
    ///
    /// ```swift
    /// let nothing = Signal<Int, Never>.never
    /// ```
    @inlinable
    public static var never: Signal {
        Signal(unsafeStart: { _, lifetime in
            if !lifetime.subscriberHeldElsewhere { lifetime.dispose() }
        })
    }

    /// A signal that builds a new signal for each subscription (RAC's `+defer:`).
    ///
    /// ```swift
    /// let now = Signal<Date, Never>.deferred { Signal(value: Date()) }   // evaluated per subscriber
    /// ```
    @inlinable
    public static func deferred<S: SignalConvertible>(_ make: @escaping @Sendable () -> S) -> Signal
    where S.Value == Value, S.Failure == Failure {
        uncheckedDeferred(make)
    }

    /// `deferred(_:)` for Tether's own stages: their closures hold per-subscription or operator-owned state
    /// that the compiler cannot prove `Sendable` (public closures are `@Sendable`: <doc:Isolation>).
    @inlinable
    package static func uncheckedDeferred<S: SignalConvertible>(
        _ make: @escaping () -> S, function: StaticString = #function
    ) -> Signal
    where S.Value == Value, S.Failure == Failure {
        Signal(
            function: function,
            unsafeStart: { sink, lifetime in
                make().signal.start(sink, in: lifetime)
            })
    }
}

extension Signal {
    /// The start of `init(value:)`: `value`, then completion. The generic and the `Failure == Never`
    /// initializers share it (the latter cannot call the former: inside its extension `self.init(value:)`
    /// names itself); each passes it to `init(unsafeStart:)` itself, so the debugging tools name the
    /// public initializer.
    @inlinable
    static func sendingValue(_ value: Value) -> (Sink<Value, Failure>, CompositeDisposable) -> Void {
        { sink, lifetime in
            sink.send(.next(value))
            if !lifetime.isDisposed { sink.send(.completed) }
            lifetime.dispose()
        }
    }

    /// The start of `init(values:)`: every element in order, then completion; disposal stops the
    /// iteration (shared as ``sendingValue(_:)`` is).
    @inlinable
    static func sendingValues<S: Sequence>(_ values: S) -> (Sink<Value, Failure>, CompositeDisposable) -> Void
    where S.Element == Value {
        { sink, lifetime in
            for value in values {
                if lifetime.isDisposed { return }
                sink.send(.next(value))
            }
            if lifetime.isDisposed { return }
            sink.send(.completed)
            lifetime.dispose()
        }
    }
}

extension Signal {
    /// A signal of `root` that holds it weakly: a subscription made once `root` is gone completes at once;
    /// otherwise `start` runs with it. For the signals of an object (`observe`, `deallocated`); `function`
    /// and `file` name the public member for the debugging tools.
    @inlinable
    static func weaklyRooted<Root: AnyObject>(
        at root: Root, function: StaticString = #function, file: StaticString = #fileID,
        _ start: @escaping (Root, Sink<Value, Failure>, CompositeDisposable) -> Void
    ) -> Signal {
        Signal(
            function: function, file: file,
            unsafeStart: { [weak root] sink, lifetime in
                guard let root else {
                    sink.send(.completed)
                    lifetime.dispose()
                    return
                }
                start(root, sink, lifetime)
            })
    }
}

extension Signal where Failure == Never {
    /// A signal that sends `value`, then completes; its failure type defaults to `Never`.
    ///
    /// ```swift
    /// let seven = Signal(value: 7)   // Signal<Int, Never>
    /// ```
    @inlinable
    @_disfavoredOverload  // so that `Signal { try await f() }` picks the async initializer, not this one
    public init(value: Value) {
        self.init(unsafeStart: Self.sendingValue(value))
    }

    /// A signal that sends every element of `values`, then completes; its failure type defaults to
    /// `Never`.
    ///
    /// ```swift
    /// let digits = Signal(values: 0..<10)   // Signal<Int, Never>
    /// ```
    @inlinable
    public init<S: Sequence>(values: S) where S.Element == Value {
        self.init(unsafeStart: Self.sendingValues(values))
    }
}
