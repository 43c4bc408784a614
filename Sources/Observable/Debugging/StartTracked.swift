#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Signal {
    /// `start` while a debugging tool is on: forgets inputs read for nothing on this thread (a `signal`
    /// read by `subscribe`), and — while the graph is on — registers this stage, removes it when the
    /// subscription ends, and passes its events through a sink that records them.
    @usableFromInline
    func startTracked(_ sink: Sink<Value, Failure>, in lifetime: CompositeDisposable) {
        let context = DebugThreadContext.current
        context.pendingInputs.removeAll(keepingCapacity: true)
        guard let debugInfo, DebugSwitch.isOn(DebugSwitch.graph) else {
            startHandler(sink, lifetime)
            return
        }
        // Started inside another stage's start: that stage's input. Started while a stage delivers (an
        // inner signal of `flatMap`): an input of the stage receiving that delivery. Otherwise a root.
        let downstream = context.starting.last ?? context.delivering.last?.node.downstream
        let label = downstream == nil ? context.subscriberLabel : nil
        if downstream == nil { context.subscriberLabel = nil }
        let node = LiveSubscriptionNode(
            info: debugInfo, downstream: downstream, subscriber: label, thread: context.name)
        LiveRegistry.shared.add(node)
        DebugTrace.recordInstant("subscribed", node: node, context: context)
        lifetime.add {
            LiveRegistry.shared.remove(node)
            DebugTrace.recordInstant("disposed", node: node, context: DebugThreadContext.current)
        }
        let recording = Sink<Value, Failure> { event in
            node.deliver(event, to: sink)
        }
        context.starting.append(node)
        startHandler(recording, lifetime)
        context.starting.removeLast()
    }
}

extension LiveSubscriptionNode {
    /// Sends `event` on, counting it, marking it as being delivered on this thread (for the checks and
    /// for inner subscriptions), and recording it in the trace while tracing.
    func deliver<Value, Failure>(_ event: Event<Value, Failure>, to sink: Sink<Value, Failure>) {
        let context = DebugThreadContext.current
        let tracing = DebugSwitch.isOn(DebugSwitch.tracing)
        let start = tracing ? DebugTrace.now() : 0
        if case .next = event {
            nexts.add(1, ordering: .relaxed)
        } else {
            terminals.add(1, ordering: .relaxed)
        }
        // The event's text only where a check's message may need it: describing costs an allocation.
        context.delivering.append((self, DebugSwitch.isChecking ? DebugTrace.describe(event) : ""))
        sink.send(event)
        context.delivering.removeLast()
        if tracing {
            DebugTrace.recordCallback(event, node: self, start: start, context: context)
        }
    }
}
