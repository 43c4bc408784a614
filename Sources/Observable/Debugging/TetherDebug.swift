import FoundationEssentials
import TetherEngine

/// Tether's debugging tools: the live graph of subscriptions, a trace you open in Perfetto, and opt-in
/// checks (<doc:DebuggingPipelines>).
///
/// Everything is off by default and costs nothing per event while off. Turn the graph on before
/// building the pipelines you want to see: a signal made while it is off is not in the graph.
///
/// ```swift
/// TetherDebug.isEnabled = true
/// let query = Subject<String, Never>()
/// let subscription = query.named("search.query").map { $0.lowercased() }.subscribe(next: { _ in })
/// print(TetherDebug.graph().text)
/// // subscriber
/// // └─ …search.query.map — a main-actor module adds a .delivered stage above it
/// //    └─ search.query  [0 values]
/// subscription.dispose()
/// ```
public enum TetherDebug {
    /// Whether the live graph is on: signals made from now on learn their names and inputs, and
    /// subscriptions started from now on are registered until they end. Off by default.
    ///
    /// Costs, while on: a small record per signal made and per stage started, and per event one call
    /// through a recording stage. While off: one relaxed load per signal made and per subscription
    /// started, nothing per event.
    ///
    /// ```swift
    /// TetherDebug.isEnabled = true
    /// ```
    public static var isEnabled: Bool {
        get { DebugSwitch.isOn(DebugSwitch.graph) }
        set {
            if newValue { DebugSwitch.turn(DebugSwitch.names, true) }
            DebugSwitch.turn(DebugSwitch.graph, newValue)
        }
    }

    /// The live subscriptions (started while ``isEnabled``) whose stages' names contain `text`, or all of
    /// them; a subscription is shown whole when any of its stages matches.
    ///
    /// ```swift
    /// let graph = TetherDebug.graph(matching: "login")
    /// print(graph.text)
    /// ```
    public static func graph(matching text: String? = nil) -> PipelineGraph {
        var live = LiveRegistry.shared.snapshot()
        if let text {
            let matching = Set(
                live.filter { $0.info.label.contains(text) || ($0.subscriber?.contains(text) ?? false) }
                    .map(\.subscription))
            live = live.filter { matching.contains($0.subscription) }
        }
        // Sources first within the snapshot: a stage is registered before the stages it starts.
        return PipelineGraph(live.reversed())
    }

    /// Reports, through `report`, any live subscription whose stages' names contain `text`, with the graph
    /// of what is alive — the test helper for "nothing of mine outlives this test".
    ///
    /// With XCTest: `TetherDebug.expectNothingAlive(matching: "login") { XCTFail($0) }`; with Swift
    /// Testing: `{ Issue.record(Comment(rawValue: $0)) }`. Returns whether nothing was alive.
    ///
    /// ```swift
    /// TetherDebug.isEnabled = true
    /// let field = Subject<String, Never>()
    /// field.named("login.username").subscribe(next: { _ in }).dispose()
    /// TetherDebug.expectNothingAlive(matching: "login") { message in print(message) }   // prints nothing
    /// ```
    @discardableResult
    public static func expectNothingAlive(matching text: String, report: (String) -> Void) -> Bool {
        let graph = graph(matching: text)
        if graph.isEmpty { return true }
        let count = Set(graph.nodes.map(\.subscription)).subtracting([0]).count
        report(
            "\(count) subscription\(count == 1 ? " is" : "s are") still alive matching \"\(text)\":\n"
                + graph.text)
        return false
    }

    /// Starts recording every event that passes a recording stage — a named one, or the source of a
    /// subject or property — of the subscriptions started from now on: its time, thread, subscription,
    /// stage name and how long its callback ran, for ``stopTrace(to:)``.
    /// Turns ``isEnabled`` on. A trace started again discards what was recorded.
    ///
    /// ```swift
    /// TetherDebug.startTrace()
    /// ```
    public static func startTrace() {
        isEnabled = true
        DebugTrace.shared.start()
        DebugSwitch.turn(DebugSwitch.tracing, true)
    }

    /// Stops recording and writes the trace to `url` as Chrome trace-event JSON: open it in Perfetto
    /// (ui.perfetto.dev) or `chrome://tracing`. Each callback is a slice on its thread's track, named after
    /// its stage, with the event and the subscription in its arguments; subscribing, disposing and the
    /// checks' findings are instants. Returns the number of events written. ``isEnabled`` stays as it is.
    ///
    /// ```swift
    /// TetherDebug.startTrace()
    /// Signal(values: [1, 2, 3]).named("numbers").map { $0 * 2 }.named("doubled").subscribe()
    /// try TetherDebug.stopTrace(to: URL(filePath: "/tmp/numbers.json"))
    /// ```
    @discardableResult
    public static func stopTrace(to url: URL) throws -> Int {
        let (json, count) = finishTrace()
        try Data(json.utf8).write(to: url)
        return count
    }

    /// Stops recording and returns the trace as Chrome trace-event JSON (see ``stopTrace(to:)``).
    ///
    /// ```swift
    /// TetherDebug.startTrace()
    /// Signal(values: [1, 2]).subscribe()
    /// let json = TetherDebug.stopTrace()
    /// ```
    public static func stopTrace() -> String {
        finishTrace().json
    }

    private static func finishTrace() -> (json: String, count: Int) {
        DebugSwitch.turn(DebugSwitch.tracing, false)
        return DebugTrace.shared.finish()
    }
}

extension TetherDebug {
    /// Turns every tool off, names included, and forgets the checks' settings (for tests).
    package static func resetForTesting() {
        enableChecks([])
        _ = DebugTrace.shared.finish()
        // The switches only: the count of threads with inputs pending stays exact.
        DebugSwitch.setSwitches { _ in 0 }
        DebugThreadContext.current.clearPendingInputs()
    }

    /// How many threads have inputs pending (read, not yet taken by a signal made or a start); for tests.
    package static var threadsWithPendingInputsForTesting: Int {
        debugFlags.value >> 8
    }
}
