extension SignalConvertible {
    /// This signal with a name for the debugging tools (RAC's `setNameWithFormat:`).
    ///
    /// The name shows in ``Signal/description``, in ``TetherDebug``'s live graph and trace, and in
    /// ``log(_:events:to:)``; signals made from a named one carry it on: `map` of `login.valid` reads
    /// `login.valid.map`, `combineLatest` of `a` and `b` reads `combineLatest(a, b)`. Naming adds no stage
    /// and costs nothing per event; from the first name on, making a signal records which signals it was
    /// made from (see <doc:DebuggingPipelines>).
    ///
    /// ```swift
    /// let username = Subject<String, Never>()
    /// let valid = username.named("login.username").map { $0.count > 3 }
    /// print(valid)   // login.username.map
    /// ```
    public func named(_ name: String) -> Signal<Value, Failure> {
        DebugSwitch.set(DebugSwitch.names, true)
        let base = signal
        // `signal` noted `base` as the input of the next signal made here; the named copy replaces it.
        let context = DebugThreadContext.current
        context.pendingInputs.removeAll(keepingCapacity: true)
        let info =
            base.debugInfo?.named(name)
            ?? SignalDebugInfo(name: name, operatorName: "Signal", inputs: [])
        return Signal(base, debugInfo: info)
    }
}

extension Signal: CustomStringConvertible {
    /// The signal's name for the debugging tools: the name given with ``SignalConvertible/named(_:)``,
    /// carried through operators (`login.valid.map`), or the signal's type when nothing names it.
    ///
    /// ```swift
    /// let numbers = Signal(values: [1, 2, 3]).named("numbers")
    /// print(numbers.map { $0 * 2 })      // numbers.map
    /// print(Signal<Int, Never>.empty)    // Signal<Int, Never>
    /// ```
    public var description: String {
        debugInfo?.label ?? "Signal<\(Value.self), \(Failure.self)>"
    }
}

extension Signal {
    /// This signal, sent into by `object` (a subject, a property): the debugging tools show one source
    /// node for all its subscriptions and the reentrancy check recognizes sends into it.
    @inlinable
    package func sent(by object: AnyObject) -> Signal {
        guard let debugInfo else { return self }
        return Signal(self, debugInfo: debugInfo.sent(by: object))
    }
}
