import TetherEngine

/// A signal and the error handlers of a chain of `catch(_:)`s whose replacements fail as it does, as a list
/// that each `catch` extends without copying it (see ``SignalComposition``).
///
/// `s.catch(h1)` is `s` with the handlers `[h1]`; `.catch(h2)` extends them to `[h1, h2]`. A subscription
/// runs `s`; an error goes to the first handler, whose replacement runs next, and whose error goes to the
/// second handler, and so on; the last replacement runs straight into the subscriber. Each value crosses
/// one stage, however deep the chain was built.
final class CatchChain<Value, Failure: Error> {
    /// The chain before ``handler``; `nil` if ``handler`` is the first. Cleared only by `deinit`.
    private var earlier: CatchChain?
    /// The signal whose errors the first handler replaces.
    private let source: Signal<Value, Failure>
    /// The last handler of the chain.
    private let handler: (Failure) -> Signal<Value, Failure>
    /// How many handlers the chain holds.
    private let count: Int

    private init(
        earlier: CatchChain?, source: Signal<Value, Failure>, handler: @escaping (Failure) -> Signal<Value, Failure>
    ) {
        self.earlier = earlier
        self.source = source
        self.handler = handler
        count = (earlier?.count ?? 0) + 1
    }

    /// `upstream`'s chain (or `upstream` with no handlers, unless a `catch` made it) followed by `handler`.
    convenience init(
        _ upstream: Signal<Value, Failure>, catching handler: @escaping (Failure) -> Signal<Value, Failure>
    ) {
        let earlier = upstream.compositionParts as? CatchChain
        self.init(earlier: earlier, source: earlier?.source ?? upstream, handler: handler)
    }

    /// The handlers, first to last.
    private var handlers: [(Failure) -> Signal<Value, Failure>] {
        var handlers: [(Failure) -> Signal<Value, Failure>] = []
        handlers.reserveCapacity(count)
        var node: CatchChain? = self
        while let current = node {
            handlers.append(current.handler)
            node = current.earlier
        }
        handlers.reverse()
        return handlers
    }

    /// Runs the chain for one subscription.
    func start(_ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable) {
        Self.start(source, replacedBy: handlers, at: 0, sink, in: lifetime)
    }

    /// Runs `signal` as a stage whose error `handlers[index]` replaces.
    private static func start(
        _ signal: Signal<Value, Failure>, replacedBy handlers: [(Failure) -> Signal<Value, Failure>], at index: Int,
        _ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable
    ) {
        // The signal is a stage of its own: it ends before its replacement starts.
        let output = OperatorOutput(sink, lifetime)
        signal.startAsStage(in: lifetime) { event in
            switch event {
            case .next(let value):
                output.send(value)
                return nil
            case .completed:
                output.finish(.completed)
                return nil
            case .error(let failure):
                return {
                    let replacement = handlers[index](failure)
                    if index == handlers.count - 1 {
                        replacement.start(sink, in: lifetime)
                    } else {
                        start(replacement, replacedBy: handlers, at: index + 1, sink, in: lifetime)
                    }
                }
            }
        }
    }

    // A chain built by ten thousand `catch`es would otherwise be freed by ten thousand nested releases.
    deinit {
        if let earlier = earlier.take() { DeepChainTrampoline.releaseLater(earlier) }
    }
}
