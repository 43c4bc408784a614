import TetherEngine

/// What a two-upstream operator (`combineLatest`, `zip`, `withLatestFrom`, `sample`) posts into its
/// ``Mailbox``: an event of either upstream, or notice that an upstream's subscription is gone.
@usableFromInline
enum BinaryInput<First, Second, Failure: Error> {
    case first(Event<First, Failure>)
    case second(Event<Second, Failure>)
    /// One upstream's child lifetime was disposed: it terminated (after its terminal event was
    /// posted), or its source went away without a terminal event.
    case gone
}

/// What an operator over a collection of same-typed upstreams (`merge`, `combineLatest([…])`,
/// `zip([…])`) posts into its ``Mailbox``: an event tagged with its upstream's position, or notice
/// that an upstream's subscription is gone.
@usableFromInline
enum IndexedInput<Value, Failure: Error> {
    case event(Int, Event<Value, Failure>)
    case gone
}

extension Signal {
    /// Starts this signal as one input of a multi-upstream operator.
    ///
    /// The input runs in its own child of `lifetime`, so that its terminal event (after which a
    /// source disposes the lifetime it was given) ends only this input, not the operator: the
    /// operator's mailbox keeps running and still handles what was queued. When the child is disposed
    /// — the input terminated, its source went away, or the whole subscription ended — the child is
    /// removed from `lifetime` (so long-lived subscriptions don't accumulate children) and `gone` runs.
    /// Operators post a `.gone` input from it and end quietly once every input is gone: nothing can
    /// send any more, and ending releases the pipeline's closures.
    ///
    /// - Returns: `false` when `lifetime` was already disposed (the input was not started).
    @inlinable
    @discardableResult
    func startAsInput(
        in lifetime: CompositeDisposable,
        sink: Sink<Value, Failure>,
        gone: @escaping @Sendable () -> Void
    ) -> Bool {
        let child = CompositeDisposable(partOf: lifetime)
        guard let key = lifetime.add(child) else { return false }
        child.add(
            AnyDisposable { [weak lifetime] in
                lifetime?.remove(key)
                gone()
            })
        start(sink, in: child)
        return true
    }
}

/// The logic of a two-input operator (`combineLatest`, `zip`, `withLatestFrom`, `sample`), one object
/// per subscription, driven by ``Signal/combining(_:_:startingSecond:function:file:logic:)``.
///
/// A type rather than a closure: the scaffold is specialized for it, so `receive` is called directly
/// (and inlined) in the mailbox's handler, where a handler closure made per subscription would add an
/// indirect call, a reabstraction thunk and its context to every value.
@usableFromInline
protocol TwoInputLogic<First, Second, Output, Failure>: AnyObject {
    associatedtype First
    associatedtype Second
    associatedtype Output
    associatedtype Failure: Error
    /// An input's value or completion (failures and inputs going away are the scaffold's). Runs one at a
    /// time, inside the operator's mailbox; ends the subscription with `output.finish(_:)`.
    func receive(_ input: BinaryInput<First, Second, Failure>, output: OperatorOutput<Output, Failure>)
}

extension Signal {
    /// The scaffold of a two-input operator: both inputs post into one ``Mailbox``, so the logic runs
    /// one input at a time, with no lock held.
    ///
    /// `logic` is evaluated once per subscription. The scaffold handles what every such operator does
    /// alike: a failure of either input is sent on and ends the subscription, and once both inputs'
    /// sources are gone without ending it (they went away without a terminal event) it ends quietly.
    /// `second` starts first when `startingSecond` (say, `withLatestFrom`: a synchronous latest value
    /// must be there for the first value). `function` and `file` name the operator for the debugging
    /// tools (see `Signal(unsafeStart:)`).
    @inlinable
    static func combining<Logic: TwoInputLogic>(
        _ first: Signal<Logic.First, Failure>, _ second: Signal<Logic.Second, Failure>,
        startingSecond: Bool = false,
        function: StaticString = #function, file: StaticString = #fileID,
        logic makeLogic: @autoclosure @escaping () -> Logic
    ) -> Signal where Logic.Output == Value, Logic.Failure == Failure {
        Signal(
            unsafeStart: { sink, lifetime in
                let logic = makeLogic()
                let output = OperatorOutput(sink, lifetime)
                let live = StateBox(InputCount(2))
                let mailbox = Mailbox<BinaryInput<Logic.First, Logic.Second, Failure>>(lifetime: lifetime) { input in
                    switch input {
                    case .first(.error(let failure)), .second(.error(let failure)):
                        output.finish(.error(failure))
                    case .gone:
                        if live.value.finishOne() { output.end() }
                    default:
                        logic.receive(input, output: output)
                    }
                }
                let firstSink = Sink<Logic.First, Failure> { mailbox.post(.first($0)) }
                let secondSink = Sink<Logic.Second, Failure> { mailbox.post(.second($0)) }
                if startingSecond {
                    guard second.startAsInput(in: lifetime, sink: secondSink, gone: { mailbox.post(.gone) })
                    else { return }
                    first.startAsInput(in: lifetime, sink: firstSink, gone: { mailbox.post(.gone) })
                } else {
                    guard first.startAsInput(in: lifetime, sink: firstSink, gone: { mailbox.post(.gone) })
                    else { return }
                    second.startAsInput(in: lifetime, sink: secondSink, gone: { mailbox.post(.gone) })
                }
            }, function: function, file: file)
    }
}

/// The logic of an operator over a collection of same-typed inputs (`merge`, `combineLatest([…])`,
/// `zip([…])`), one object per subscription, driven by
/// ``Signal/combining(_:function:file:logic:)``. A type for the reason ``TwoInputLogic`` is one.
@usableFromInline
protocol ManyInputLogic<Input, Output, Failure>: AnyObject {
    associatedtype Input
    associatedtype Output
    associatedtype Failure: Error
    /// A value or completion of the input at `index` (failures and inputs going away are the
    /// scaffold's). Runs one at a time, inside the operator's mailbox; ends the subscription with
    /// `output.finish(_:)`.
    func receive(_ index: Int, _ event: Event<Input, Failure>, output: OperatorOutput<Output, Failure>)
}

extension Signal {
    /// The scaffold of an operator over a collection of same-typed inputs: every input posts into one
    /// ``Mailbox``, tagged with its position, so the logic runs one input at a time, with no lock held.
    ///
    /// `makeLogic` runs once per subscription, with the number of inputs. As
    /// ``combining(_:_:startingSecond:function:file:logic:)`` does for two inputs, the scaffold sends on a
    /// failure of any input and ends, and ends quietly once every input's source is gone. No inputs:
    /// the result completes at once (RAC's `+merge:@[]`, `+combineLatest:@[]`, `+zip:@[]`).
    @inlinable
    static func combining<Logic: ManyInputLogic>(
        _ sources: [Signal<Logic.Input, Failure>],
        function: StaticString = #function, file: StaticString = #fileID,
        logic makeLogic: @escaping (_ count: Int) -> Logic
    ) -> Signal where Logic.Output == Value, Logic.Failure == Failure {
        Signal(
            unsafeStart: { sink, lifetime in
                let output = OperatorOutput(sink, lifetime)
                let count = sources.count
                if count == 0 {
                    output.finish(.completed)
                    return
                }
                let logic = makeLogic(count)
                let live = StateBox(InputCount(count))
                let mailbox = Mailbox<IndexedInput<Logic.Input, Failure>>(lifetime: lifetime) { input in
                    switch input {
                    case .event(_, .error(let failure)):
                        output.finish(.error(failure))
                    case .event(let index, let event):
                        logic.receive(index, event, output: output)
                    case .gone:
                        if live.value.finishOne() { output.end() }
                    }
                }
                for (index, source) in sources.enumerated() {
                    let started = source.startAsInput(
                        in: lifetime, sink: Sink { mailbox.post(.event(index, $0)) }, gone: { mailbox.post(.gone) })
                    if !started { return }
                }
            }, function: function, file: file)
    }
}
