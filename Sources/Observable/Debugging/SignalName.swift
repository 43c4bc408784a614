import TetherEngine

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
        DebugSwitch.turn(DebugSwitch.names, true)
        let base = signal
        // `signal` noted `base` as the input of the next signal made here; the named copy replaces it.
        DebugThreadContext.current.clearPendingInputs()
        // A plain subject's signal keeps its subject (see `SignalAnnex`): the named stage only records while
        // the graph is on, so with the graph off `map` below it may join the subject as below the unnamed.
        let info =
            base.debugInfo?.named(name)
            ?? SignalDebugInfo(
                name: name, operatorName: "Signal", inputs: [],
                plainSubject: base.plainSubjectSource?.takeUnretainedValue())
        return base.recording(as: info)
    }
}

extension Signal: CustomStringConvertible {
    /// The signal's name for the debugging tools: the name given with ``SignalConvertible/named(_:)``,
    /// carried through operators (`login.valid.map`), or the signal's type when nothing names it.
    ///
    /// ```swift
    /// let numbers = Signal(values: [1, 2, 3]).named("numbers")
    /// print(numbers.map { $0 * 2 })      // numbers.map
    /// print(Signal<Int, Never>.empty)    // Signal.empty
    /// ```
    public var description: String {
        debugInfo?.label ?? "Signal<\(Value.self), \(Failure.self)>"
    }
}

extension Signal {
    /// While a debugging tool is on, the signal `make` returns — a subject's or a property's — as a stage
    /// sent into by `object` that records its deliveries: one source node in the graph for all its
    /// subscriptions, and the identity the reentrancy check compares. Out of line, and taking a closure
    /// that builds the signal anew, so that the closures of the caller's usual path never escape.
    @usableFromInline
    static func tracked(sentBy object: AnyObject, _ make: () -> Signal) -> Signal {
        make().tracked(sentBy: object)
    }

    /// This signal as a stage sent into by `object` that records its deliveries (while a tool is on).
    func tracked(sentBy object: AnyObject) -> Signal {
        guard let debugInfo else { return self }
        return recording(as: debugInfo.sent(by: object))
    }

    /// The same recipe as one stage described by `info` that, while the graph is on, records the events it
    /// sends — counts, the trace's slices, what the checks see as being delivered. Named stages and the
    /// sources of subjects and properties record; other stages are registered in the graph but send
    /// straight on, so that tools that are off cost nothing per event. For a subject's or a property's
    /// stage, a callback that sends into that same source is reported by the reentrancy check.
    func recording(as info: SignalDebugInfo) -> Signal {
        let handler = startHandler
        let gate = info.gate
        return Signal(
            recordingStart: { sink, lifetime in
                guard let node = LiveSubscriptionNode.starting(as: info) else {
                    handler(sink, lifetime)
                    return
                }
                handler(
                    Sink { event in
                        let time = node.willDeliver(event)
                        guard let gate, DebugSwitch.isChecking else {
                            sink.send(event)
                            node.didDeliver(event, startedAt: time)
                            return
                        }
                        // The gate's owner-only queue holds exactly the sends this thread made while it
                        // delivers: it grows during the callback only by a reentrant send.
                        let queuedBefore = gate.reentrantQueueCount
                        sink.send(event)
                        if gate.reentrantQueueCount > queuedBefore {
                            TetherDebug.reportReentrantSend(
                                queued: gate.lastReentrantSend, node: node, event: DebugTrace.describe(event))
                        }
                        node.didDeliver(event, startedAt: time)
                    }, lifetime)
            }, debugInfo: info)
    }
}

extension SerialGate: ReentrancyProbe {
    var lastReentrantSend: String { lastReentrantSubmission.map(describeSubmission) ?? "?" }
}
