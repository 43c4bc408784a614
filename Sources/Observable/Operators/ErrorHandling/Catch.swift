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
        if Replacement.Failure.self == Failure.self {
            // The same type, so the casts change nothing; they let the chain hold one handler type.
            let chain = CatchChain(upstream) { failure in
                unsafeBitCast(handler(failure).signal, to: Signal<Value, Failure>.self)
            }
            let chained = Signal<Value, Failure>(composedOf: chain, function: #function) { sink, lifetime in
                chain.start(sink, in: lifetime)
            }
            return unsafeBitCast(chained, to: Signal<Value, Replacement.Failure>.self)
        }
        return Signal(unsafeStart: { sink, lifetime in
            // The source is a stage of its own: it ends before the replacement starts.
            let output = OperatorOutput(sink, lifetime)
            upstream.startAsStage(in: lifetime) { event in
                switch event {
                case .next(let value):
                    output.send(value)
                    return nil
                case .completed:
                    output.finish(.completed)
                    return nil
                case .error(let failure):
                    return { handler(failure).signal.start(sink, in: lifetime) }
                }
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
