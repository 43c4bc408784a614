import TetherEngine

/// The debugging tools' side of ``StageTracking``: what `Signal.start` does, through the hook, while a
/// debugging tool is on. Installed by ``DebugSwitch/turn(_:_:)`` before it turns a tool on.
final class StageTracker: StageTracking {
    static let shared = StageTracker()

    /// Forgets inputs read for nothing on this thread (the `signal` that `subscribe` read), and — while
    /// the graph is on and the signal has debug info — registers a node for the stage being started
    /// (removed when its subscription ends) and returns it.
    func starting(_ debugInfo: SignalDebugInfo?) -> LiveSubscriptionNode? {
        let graph = DebugSwitch.isOn(DebugSwitch.graph)
        // Nothing to forget and nothing to register: no thread-local lookup.
        if (debugInfo == nil || !graph) && !DebugThreadContext.anyThreadHasPendingInputs { return nil }
        let context = DebugThreadContext.current
        context.clearPendingInputs()
        guard let debugInfo, graph else { return nil }
        // Started inside another stage's start: that stage's input. Started while a stage delivers (an
        // inner signal of `flatMap`): an input of the stage receiving that delivery. Otherwise a root.
        let downstream = context.starting.last ?? context.delivering.last?.node.downstream
        let label = downstream == nil ? context.subscriberLabel : nil
        if downstream == nil { context.subscriberLabel = nil }
        let node = LiveSubscriptionNode(
            info: debugInfo, downstream: downstream, subscriber: label, thread: context.name)
        LiveRegistry.shared.add(node)
        DebugTrace.recordInstant("subscribed", node: node, context: context)
        context.starting.append(node)
        return node
    }

    /// The stage's subscription ended: it leaves the graph.
    func didEnd(_ node: LiveSubscriptionNode) {
        LiveRegistry.shared.remove(node)
        DebugTrace.recordInstant("disposed", node: node, context: DebugThreadContext.current)
    }

    /// The stage has started (its upstream stages too).
    func didStart(_ node: LiveSubscriptionNode) {
        DebugThreadContext.current.starting.removeLast()
    }
}

extension DebugSwitch {
    /// Turns `tool` on or off, after installing the debugging tools' ``StageTracking`` hook: the only way
    /// the debugging tools switch themselves on, so that `Signal.start` finds the hook whenever a tool is on.
    static func turn(_ tool: Int, _ on: Bool) {
        if on { StageTrackingHook.install(StageTracker.shared) }
        set(tool, on)
    }
}

extension LiveSubscriptionNode {
    /// The node of the stage described by `info` that is starting on this thread, if the graph is on.
    static func starting(as info: SignalDebugInfo) -> LiveSubscriptionNode? {
        guard DebugSwitch.isOn(DebugSwitch.graph), let node = DebugThreadContext.current.starting.last,
            node.info === info
        else { return nil }
        node.recordsEvents.raise()
        return node
    }

    /// Before the stage sends `event` on: counts it and marks it as being delivered on this thread (for
    /// the checks and for inner subscriptions). Returns the time it started while tracing, else `0`.
    func willDeliver<Value, Failure>(_ event: Event<Value, Failure>) -> Double {
        if case .next = event { nexts.add(1) }
        // The event's text only where a check's message may need it: describing costs an allocation.
        DebugThreadContext.current.delivering.append((self, DebugSwitch.isChecking ? DebugTrace.describe(event) : ""))
        return DebugSwitch.isOn(DebugSwitch.tracing) ? DebugTrace.now() : 0
    }

    /// After the stage sent `event` on: records the callback in the trace while tracing.
    func didDeliver<Value, Failure>(_ event: Event<Value, Failure>, startedAt start: Double) {
        let context = DebugThreadContext.current
        context.delivering.removeLast()
        if start != 0 && DebugSwitch.isOn(DebugSwitch.tracing) {
            DebugTrace.recordCallback(event, node: self, start: start, context: context)
        }
    }
}
