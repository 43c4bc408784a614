import TetherEngine

extension SignalConvertible {
    /// On error, switches to the signal that `handler` returns for that error (RAC's `catch:`).
    ///
    /// Values and completion pass through; after an error, the replacement's events are sent, so
    /// the result's failure type is the replacement's (`Never` if it cannot fail).
    ///
    /// ```swift
    /// enum IOError: Error { case closed }
    /// let download = Signal<Data, IOError>.empty
    /// let cachedData = Data()
    /// let safe: Signal<Data, Never> = download.catch { _ in Signal(value: cachedData) }
    /// ```
    /// Marble: `-1-2-X`, replacement `-9-|` → `-1-2--9-|`
    ///
    /// A chain of `catch`es whose replacements fail as their upstream does, built one at a time, runs as one
    /// list of handlers: each value crosses one stage, however many `catch`es came before it.
    public func `catch`<Replacement: SignalConvertible>(
        _ handler: @escaping @Sendable (Failure) -> Replacement
    ) -> Signal<Value, Replacement.Failure> where Replacement.Value == Value {
        let upstream = signal
        if Replacement.Failure.self == Failure.self, !DebugSwitch.needsSignalTracking {
            // Safety of the two `unsafeBitCast`s: the test above compares the exact runtime types, so
            // `Replacement.Failure` *is* `Failure` here and each cast is from a type to itself (it changes no
            // bits and moves nothing between threads); they only let the compiler see one handler type for the
            // chain. (While the debugging tools track pipelines each `catch` is a stage of its own, below.)
            let chain = CatchChain(upstream) { failure in
                unsafeBitCast(handler(failure).signal, to: Signal<Value, Failure>.self)
            }
            let chained = Signal<Value, Failure>(composedOf: chain, function: #function) { sink, lifetime in
                chain.start(sink, in: lifetime)
            }
            return unsafeBitCast(chained, to: Signal<Value, Replacement.Failure>.self)
        }
        return Signal(unsafeStart: { sink, lifetime in
            upstream.startAsCatchStage(sink, in: lifetime) { failure in
                handler(failure).signal.start(sink, in: lifetime)
            }
        })
    }

    /// `catch(_:)` with a replacement that cannot fail, so that `catch { _ in .empty }` and
    /// `catch { _ in Signal(value: fallback) }` compile as written in RAC (`catch:` returning
    /// `[RACSignal empty]`): the result cannot fail.
    ///
    /// ```swift
    /// enum LoadError: Error { case offline }
    /// let load = Signal<String, LoadError>(error: .offline)
    /// load.catch { _ in .empty }.subscribe(completed: { print("done, quietly") })
    /// load.catch { _ in Signal(value: "fallback") }.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public func `catch`(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, Never>
    ) -> Signal<Value, Never> {
        catchReplacing(handler)
    }

    /// The generic `catch(_:)`, reached from a context where only it applies.
    @inlinable
    func catchReplacing<Replacement: SignalConvertible>(
        _ handler: @escaping @Sendable (Failure) -> Replacement
    ) -> Signal<Value, Replacement.Failure> where Replacement.Value == Value {
        self.catch(handler)
    }
}

extension Signal {
    /// Starts this signal as the stage of a `catch`: its values and completion go to `sink`, and its error,
    /// once the stage has ended, to `replace` (which starts the replacement).
    func startAsCatchStage<NewFailure: Error>(
        _ sink: Sink<Value, NewFailure>, in lifetime: CompositeDisposable,
        replacingErrorWith replace: @escaping (Failure) -> Void
    ) {
        let output = OperatorOutput(sink, lifetime)
        startAsStage(in: lifetime) { event in
            switch event {
            case .next(let value):
                output.send(value)
                return nil
            case .completed:
                output.finish(.completed)
                return nil
            case .error(let failure):
                return { replace(failure) }
            }
        }
    }
}

/// A signal and the error handlers of a chain of `catch(_:)`s whose replacements fail as it does, the
/// handlers in a ``PersistentList`` that each `catch` extends (the chain is its signal's annex's parts).
///
/// `s.catch(h1)` is `s` with the handlers `[h1]`; `.catch(h2)` extends them to `[h1, h2]`. A subscription
/// runs `s`; its error goes to the first handler, whose replacement runs next and whose error goes to the
/// second, and so on; the last replacement runs straight into the subscriber. Each value crosses one stage,
/// however deep the chain was built.
final class CatchChain<Value, Failure: Error> {
    typealias Handler = (Failure) -> Signal<Value, Failure>

    /// The signal whose error the first handler replaces.
    private let source: Signal<Value, Failure>
    private let handlers: PersistentList<Handler>

    /// `upstream`'s chain (or `upstream` with no handlers, unless a `catch` made it) followed by `handler`.
    init(_ upstream: Signal<Value, Failure>, catching handler: @escaping Handler) {
        if let earlier = upstream.compositionParts as? CatchChain {
            source = earlier.source
            handlers = earlier.handlers.appending(handler)
        } else {
            source = upstream
            handlers = PersistentList(handler)
        }
    }

    /// Runs the chain for one subscription.
    func start(_ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable) {
        Self.start(source, replacedBy: handlers.elements, at: 0, sink, in: lifetime)
    }

    /// Runs `signal` as a stage whose error `handlers[index]` replaces.
    private static func start(
        _ signal: Signal<Value, Failure>, replacedBy handlers: [Handler], at index: Int,
        _ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable
    ) {
        signal.startAsCatchStage(sink, in: lifetime) { failure in
            let replacement = handlers[index](failure)
            if index == handlers.count - 1 {
                replacement.start(sink, in: lifetime)
            } else {
                start(replacement, replacedBy: handlers, at: index + 1, sink, in: lifetime)
            }
        }
    }
}
