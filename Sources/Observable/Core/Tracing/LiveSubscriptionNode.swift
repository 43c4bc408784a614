import TetherEngine

/// One started stage of a live subscription: the signal it runs, the stage it sends to, and counts of
/// what passed. Registered in ``LiveRegistry`` while its subscription lives.
@usableFromInline
package final class LiveSubscriptionNode: Sendable {
    /// A number unique in this process.
    package let id: Int
    /// The signal this stage runs.
    package let info: SignalDebugInfo
    /// The stage it sends to; `nil` for the last stage, which sends to the subscriber.
    package let downstream: LiveSubscriptionNode?
    /// Who receives the last stage's events (`subscribe(next:…)`, a binding's target).
    package let subscriber: String?
    /// The first stage's id: the subscription's number in traces and the graph.
    package let subscription: Int
    /// The thread that started it.
    package let startThread: String
    /// How many values passed (counted only while the stage records its events).
    let nexts = RelaxedCounter()
    /// Set once the stage records its events (named stages and the sources of subjects and properties).
    let recordsEvents = AtomicFlag()

    init(info: SignalDebugInfo, downstream: LiveSubscriptionNode?, subscriber: String?, thread: String) {
        let id = liveNodeNumbers.add(1)
        self.id = id
        self.info = info
        self.downstream = downstream
        self.subscriber = downstream == nil ? (subscriber ?? "subscriber") : nil
        self.subscription = downstream?.subscription ?? id
        self.startThread = thread
    }

    /// How many values passed this stage, or `nil` if it does not record its events.
    package var nextCount: Int? {
        recordsEvents.isSet ? nexts.value : nil
    }
}

private let liveNodeNumbers = RelaxedCounter()

/// The live stages of every subscription started while the graph was on.
final class LiveRegistry: Sendable {
    /// The live stages by id (under a lock never held while user code runs).
    private let nodes = LockedState<[Int: LiveSubscriptionNode]>([:])

    static let shared = LiveRegistry()

    func add(_ node: LiveSubscriptionNode) {
        nodes.withLock { $0[node.id] = node }
    }

    func remove(_ node: LiveSubscriptionNode) {
        _ = nodes.withLock { $0.removeValue(forKey: node.id) }
    }

    /// Every live stage, oldest first.
    func snapshot() -> [LiveSubscriptionNode] {
        nodes.withLock { Array($0.values) }.sorted { $0.id < $1.id }
    }
}

/// What the debugging tools do when a stage starts and when its subscription ends. `Signal.start` calls
/// it (through ``StageTrackingHook``) only while a debugging tool is on; the tools, a higher layer,
/// install their implementation before they turn themselves on, so the core never names them.
package protocol StageTracking: AnyObject, Sendable {
    /// Called as a stage starts: returns the stage's node when the graph registers it (the start then
    /// calls ``didEnd(_:)`` when the subscription ends and ``didStart(_:)`` once the stage has started).
    func starting(_ debugInfo: SignalDebugInfo?) -> LiveSubscriptionNode?
    /// The stage has started (its upstream stages too).
    func didStart(_ node: LiveSubscriptionNode)
    /// The stage's subscription ended.
    func didEnd(_ node: LiveSubscriptionNode)
}

/// Where the debugging tools' ``StageTracking`` is installed. Read on the slow path only (a tool is on),
/// once per stage started, under a lock (held for the one read).
package enum StageTrackingHook {
    /// The installed tracking: installed once and never removed.
    private static let storage = LockedState<(any StageTracking)?>(nil)

    /// The installed tracking, if a debugging tool was ever turned on.
    static var installed: (any StageTracking)? {
        storage.withLock { $0 }
    }

    /// Installs `tracking` (the debugging tools' one implementation; installing it again changes nothing).
    package static func install(_ tracking: any StageTracking) {
        storage.withLock { installed in
            if installed == nil { installed = tracking }
        }
    }
}

extension LiveSubscriptionNode {
    /// Called by `Signal.start` while a debugging tool is on (see ``StageTracking/starting(_:)``).
    ///
    /// The lifetime is not passed in: handing it to out-of-line code would make it escape for the
    /// optimizer, and a subscription whose lifetime never escapes (a cold signal subscribed for its
    /// values only) is allocated on the stack.
    @usableFromInline
    static func starting(_ debugInfo: SignalDebugInfo?) -> LiveSubscriptionNode? {
        StageTrackingHook.installed?.starting(debugInfo)
    }

    /// The stage's subscription ended (see ``StageTracking/didEnd(_:)``).
    @usableFromInline
    func didEnd() {
        StageTrackingHook.installed?.didEnd(self)
    }

    /// The stage has started (see ``StageTracking/didStart(_:)``).
    @usableFromInline
    func didStart() {
        StageTrackingHook.installed?.didStart(self)
    }
}
