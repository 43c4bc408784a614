import TetherEngine

extension SignalConvertible {
    /// Sends the values of this signal and `other` as they arrive (RAC's `merge:`).
    ///
    /// Completes when both have completed; fails as soon as either fails (and disposes the other).
    /// `Signal.merge(_:)` merges any number of signals.
    ///
    /// ```swift
    /// let taps = Subject<String, Never>()
    /// let keys = Subject<String, Never>()
    /// taps.merge(with: keys).subscribe(next: { print($0) })
    /// taps.send("tap"); keys.send("enter")   // prints tap, enter
    /// ```
    /// Marble: `-a---b-|` merge `--1-2---|` → `-a1--2b-|` (all values in arrival order)
    @inlinable
    public func merge<Other: SignalConvertible>(
        with other: Other
    ) -> Signal<Value, Failure> where Other.Value == Value, Other.Failure == Failure {
        Signal.mergeSignals([signal, other.signal])
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
