import TetherEngine

extension SignalConvertible {
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
    /// tick.send()   // prints 2
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
