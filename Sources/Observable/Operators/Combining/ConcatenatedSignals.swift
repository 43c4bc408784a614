import TetherEngine

/// The signals that a chain of `concat(_:)`s runs one after the other, as a list that each `concat` extends
/// without copying it (see ``SignalComposition``).
///
/// `a.concat(b)` is the list `[a, b]`; `a.concat(b).concat(c)` extends it to `[a, b, c]`, sharing the
/// first two. A subscription reads the list once (``signals``) and runs it as one stage per signal: each
/// value crosses one stage, however deep the chain was built.
final class ConcatenatedSignals<Value, Failure: Error> {
    /// The list before ``last``; `nil` if ``last`` is the first signal. Cleared only by `deinit`.
    private var earlier: ConcatenatedSignals?
    /// The last signal of the list.
    private let last: Signal<Value, Failure>
    /// How many signals the list holds.
    private let count: Int

    private init(earlier: ConcatenatedSignals?, last: Signal<Value, Failure>) {
        self.earlier = earlier
        self.last = last
        count = (earlier?.count ?? 0) + 1
    }

    /// The list of `first`'s signals (`first` itself, unless a `concat` made it) followed by `next`.
    convenience init(_ first: Signal<Value, Failure>, then next: Signal<Value, Failure>) {
        let earlier =
            first.compositionParts as? ConcatenatedSignals
            ?? ConcatenatedSignals(earlier: nil, last: first)
        self.init(earlier: earlier, last: next)
    }

    /// The signals, first to last.
    var signals: [Signal<Value, Failure>] {
        var signals: [Signal<Value, Failure>] = []
        signals.reserveCapacity(count)
        var node: ConcatenatedSignals? = self
        while let current = node {
            signals.append(current.last)
            node = current.earlier
        }
        signals.reverse()
        return signals
    }

    /// Runs `signals[index...]` for one subscription: each as a stage that forwards its values and its
    /// error and, when it completes, starts the next; the last straight into `sink`.
    static func start(
        _ signals: [Signal<Value, Failure>], at index: Int,
        _ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable
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
            return { start(signals, at: index + 1, sink, in: lifetime) }
        }
    }

    // A list built by ten thousand `concat`s would otherwise be freed by ten thousand nested releases.
    deinit {
        if let earlier = earlier.take() { DeepChainTrampoline.releaseLater(earlier) }
    }
}
