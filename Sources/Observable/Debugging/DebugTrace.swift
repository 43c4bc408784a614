import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The trace being recorded: Chrome trace events (the JSON format Perfetto and `chrome://tracing` open).
final class DebugTrace: Sendable {
    /// What was recorded since the trace started, under a lock never held while user code runs.
    private struct Recording {
        var events: [TraceEvent] = []
        var threads: [Int: String] = [:]
        var origin: Double = 0
    }

    private let recording = LockedState(Recording())

    static let shared = DebugTrace()

    /// One trace event; `duration` is set for callbacks ("X"), `nil` for instants ("i").
    struct TraceEvent {
        var name: String
        var category: String
        var timestamp: Double
        var duration: Double?
        var thread: Int
        var arguments: [(String, String)]
    }

    /// Microseconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1_000_000 + Double(time.tv_nsec) / 1_000
    }

    /// The text of `event` for a trace or a message, cut to 120 characters.
    static func describe<Value, Failure>(_ event: Event<Value, Failure>) -> String {
        let text = "\(event)"
        return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }

    func start() {
        let origin = Self.now()
        recording.withLock { $0 = Recording(origin: origin) }
    }

    func append(_ event: TraceEvent, threadName: String) {
        recording.withLock {
            $0.events.append(event)
            if $0.threads[event.thread] == nil { $0.threads[event.thread] = threadName }
        }
    }

    /// Takes what was recorded as Chrome trace-event JSON (the "JSON object format").
    func finish() -> (json: String, count: Int) {
        let (recorded, names, origin) = recording.withLock { recording in
            let taken = (recording.events, recording.threads, recording.origin)
            recording.events = []
            recording.threads = [:]
            return taken
        }
        var lines: [String] = []
        lines.reserveCapacity(recorded.count + names.count)
        for (thread, name) in names.sorted(by: { $0.key < $1.key }) {
            lines.append(
                #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(thread),"args":{"name":\#(jsonString(name))}}"#)
        }
        for event in recorded {
            var line = #"{"name":\#(jsonString(event.name)),"cat":\#(jsonString(event.category)),"#
            let timestamp = max(0, event.timestamp - origin)
            if let duration = event.duration {
                line += #""ph":"X","ts":\#(format(timestamp)),"dur":\#(format(duration)),"#
            } else {
                line += #""ph":"i","s":"t","ts":\#(format(timestamp)),"#
            }
            line += #""pid":1,"tid":\#(event.thread),"args":{"#
            line += event.arguments.map { "\(jsonString($0.0)):\(jsonString($0.1))" }.joined(separator: ",")
            line += "}}"
            lines.append(line)
        }
        let json = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
        return (json, recorded.count)
    }

    static func recordInstant(_ what: String, node: LiveSubscriptionNode, context: DebugThreadContext) {
        guard DebugSwitch.isOn(DebugSwitch.tracing) else { return }
        shared.append(
            TraceEvent(
                name: "\(what) \(node.info.label)", category: what, timestamp: now(), duration: nil,
                thread: context.number, arguments: arguments(node)),
            threadName: context.name)
    }

    static func recordCallback<Value, Failure>(
        _ event: Event<Value, Failure>, node: LiveSubscriptionNode, start: Double, context: DebugThreadContext
    ) {
        let end = now()
        let kind: String
        switch event {
        case .next: kind = "next"
        case .error: kind = "error"
        case .completed: kind = "completed"
        }
        var arguments = arguments(node)
        arguments.append(("event", describe(event)))
        shared.append(
            TraceEvent(
                name: node.info.label, category: kind, timestamp: start, duration: end - start,
                thread: context.number, arguments: arguments),
            threadName: context.name)
    }

    /// Records a check's finding as an instant on the thread where it happened.
    static func recordFinding(_ message: String, category: String) {
        guard DebugSwitch.isOn(DebugSwitch.tracing) else { return }
        let context = DebugThreadContext.current
        shared.append(
            TraceEvent(
                name: category, category: category, timestamp: now(), duration: nil, thread: context.number,
                arguments: [("message", message)]),
            threadName: context.name)
    }

    private static func arguments(_ node: LiveSubscriptionNode) -> [(String, String)] {
        var arguments = [("subscription", "\(node.subscription)"), ("stage", "\(node.id)")]
        if let subscriber = node.subscriber { arguments.append(("subscriber", subscriber)) }
        return arguments
    }
}

private func format(_ microseconds: Double) -> String {
    let rounded = (microseconds * 1000).rounded() / 1000
    return "\(rounded)"
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
