import TetherEngine

/// The opt-in checks (see ``TetherDebug/enableChecks(_:report:)``).
///
/// ```swift
/// TetherDebug.enableChecks([.reentrancy, .mainQueueBindings]) { finding in print(finding) }
/// ```
public struct DebugChecks: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int

    /// Checks from bits.
    ///
    /// ```swift
    /// let checks = DebugChecks(rawValue: 1)   // .mainQueueBindings
    /// ```
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A binding whose target must be touched on the main queue — a type passed to
    /// ``TetherDebug/requireMainQueue(for:)`` — is set on another queue.
    public static let mainQueueBindings = DebugChecks(rawValue: 1)
    /// A send into a subject or property from inside the delivery of one of its own events: it is queued
    /// behind that event (guarantee 4 of <doc:ThreadingAndLifetimes>), which is often not what the author
    /// expected. Checked for subscriptions started while the checks are on.
    public static let reentrancy = DebugChecks(rawValue: 2)
    /// Every check.
    public static let all: DebugChecks = [.mainQueueBindings, .reentrancy]
}

/// One finding of a check, with the named pipeline in its message.
///
/// ```swift
/// TetherDebug.enableChecks(.reentrancy) { finding in
///     if finding.check == .reentrancy { print(finding.message) }
/// }
/// ```
public struct DebugFinding: Sendable, CustomStringConvertible {
    /// Which check found it.
    public let check: DebugChecks
    /// What happened, naming the pipeline.
    public let message: String

    /// The message, prefixed with `Tether:`.
    public var description: String { "Tether: \(message)" }
}

/// The enabled checks and where findings go.
final class CheckSettings: Sendable {
    /// What the settings hold, under a lock; `report` is called after it is released.
    private struct State {
        var checks: DebugChecks = []
        var report: @Sendable (DebugFinding) -> Void = { _ in }
        var mainQueueTypes: Set<ObjectIdentifier> = []
    }

    private let state = LockedState(State())

    static let shared = CheckSettings()

    func set(_ checks: DebugChecks, report: @escaping @Sendable (DebugFinding) -> Void) {
        // The replaced report is released after the lock: what it captured may run a deinit.
        let replaced = state.withLock { state in
            defer {
                state.checks = checks
                state.report = report
            }
            return state.report
        }
        withExtendedLifetime(replaced) {}
    }

    func requireMainQueue(_ type: ObjectIdentifier) {
        _ = state.withLock { $0.mainQueueTypes.insert(type) }
    }

    func isOn(_ check: DebugChecks) -> Bool {
        state.withLock { $0.checks.contains(check) }
    }

    func requiresMainQueue(_ type: ObjectIdentifier) -> Bool {
        state.withLock { $0.checks.contains(.mainQueueBindings) && $0.mainQueueTypes.contains(type) }
    }

    func emit(_ finding: DebugFinding) {
        let report = state.withLock { $0.report }
        DebugTrace.recordFinding(finding.message, category: "check")
        report(finding)
    }
}

extension TetherDebug {
    /// Turns on `checks` (turning off the others); findings go to `report` (by default printed to the
    /// standard output) and, while tracing, into the trace. Turns ``isEnabled`` on: the reentrancy check
    /// names the pipelines of subscriptions started from now on. `[]` turns every check off.
    ///
    /// ```swift
    /// TetherDebug.enableChecks(.reentrancy)
    /// let subject = Subject<Int, Never>()
    /// subject.named("counter").subscribe(next: { if $0 == 1 { subject.send(2) } })
    /// subject.send(1)
    /// // Tether: reentrant send of next(2) into counter, from inside its delivery of next(1) to
    /// // subscriber: queued behind it, delivered after that callback returns
    /// ```
    public static func enableChecks(
        _ checks: DebugChecks, report: @escaping @Sendable (DebugFinding) -> Void = { print($0) }
    ) {
        CheckSettings.shared.set(checks, report: report)
        if !checks.isEmpty { isEnabled = true }
        DebugSwitch.turn(DebugSwitch.checks, !checks.isEmpty)
    }

    /// Declares that objects of `type` may only be touched on the main queue (`@MainActor` view
    /// classes, GTK widgets): with ``DebugChecks/mainQueueBindings`` on, a binding that sets a property
    /// of one on another queue is reported, with the binding and its pipeline.
    ///
    /// ```swift
    /// final class LoginForm: BindingTarget { var isLoginEnabled = false }
    /// TetherDebug.requireMainQueue(for: LoginForm.self)
    /// TetherDebug.enableChecks(.mainQueueBindings)
    /// ```
    public static func requireMainQueue(for type: AnyObject.Type) {
        CheckSettings.shared.requireMainQueue(ObjectIdentifier(type))
    }

    /// Called by a recording stage of a subject or property after one of its callbacks returned, when
    /// the gate's own queue grew during it: the callback sent into the source it was called from, and that
    /// send was queued behind the event being delivered (guarantee 4). Reports it with the pipeline.
    static func reportReentrantSend(queued: String, node: LiveSubscriptionNode, event: String) {
        let settings = CheckSettings.shared
        guard settings.isOn(.reentrancy) else { return }
        var receiver = node
        while let next = receiver.downstream { receiver = next }
        settings.emit(
            DebugFinding(
                check: .reentrancy,
                message: "reentrant send of \(queued) into \(node.info.label), from inside its delivery of "
                    + "\(event) to \(receiver.subscriber ?? receiver.info.label): queued behind it, "
                    + "delivered after that callback returns"))
    }

    /// Called by a binding while checks are on: the closure to run before each value it sets, or `nil`
    /// when `target` need not be touched on the main queue.
    package static func mainQueueCheck(
        for target: AnyObject, binding: @autoclosure () -> String
    ) -> (() -> Void)? {
        guard DebugSwitch.isChecking, CheckSettings.shared.requiresMainQueue(ObjectIdentifier(type(of: target)))
        else { return nil }
        let label = binding()
        return {
            if isOnMainQueue() { return }
            let context = DebugThreadContext.current
            let pipeline = context.delivering.last.map { " from \($0.node.info.label)" } ?? ""
            CheckSettings.shared.emit(
                DebugFinding(
                    check: .mainQueueBindings,
                    message: "\(label) set off the main queue (on \(context.name))\(pipeline): "
                        + "deliver it with bind(_:to:on: QueueScheduler.main)"))
        }
    }

    /// The label a binding gives its subscription in the graph, while the graph is on.
    package static func withSubscriberLabel<R>(_ label: @autoclosure () -> String, _ body: () -> R) -> R {
        guard DebugSwitch.isOn(DebugSwitch.graph) else { return body() }
        let context = DebugThreadContext.current
        context.subscriberLabel = label()
        defer { context.subscriberLabel = nil }
        return body()
    }
}

/// A gate's queued operation as the event it carries: `.event(next(2))` reads `next(2)`.
func describeSubmission<Op>(_ submission: Op) -> String {
    let text = "\(submission)"
    guard text.hasPrefix("event("), text.hasSuffix(")") else { return text }
    return String(text.dropFirst(6).dropLast())
}
