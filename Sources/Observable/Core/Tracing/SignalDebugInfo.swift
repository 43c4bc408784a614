import TetherEngine

/// What the debugging tools know about one signal: its name if it was given one, the operator or source
/// that made it, and the signals it was made from. Immutable, so it is shared freely between threads.
///
/// A signal made while ``TetherDebug`` tracks pipelines learns its inputs from the calling thread: an
/// operator reads `signal` of each input just before it makes its result (`let upstream = signal`), and
/// `Signal.init(unsafeStart:)` (or `Signal.annexOfNewSignal(function:file:)`, which `map` calls before it
/// makes its start closure) takes what was read since. The operators only have to read their inputs first.
@usableFromInline
package final class SignalDebugInfo: Sendable {
    /// A number unique in this process.
    package let id: Int
    /// The name given with `named(_:)`.
    package let name: String?
    /// The operator or source that made the signal: `map`, `combineLatest`, `Signal(values:)`, `Subject`.
    package let operatorName: String
    /// The signals it was made from, in the order the operator read them.
    package let inputs: [SignalDebugInfo]
    /// The object that sends into it, for subjects and properties: one node in the graph however many
    /// subscriptions it has, and the identity the reentrancy check compares.
    package let source: ObjectIdentifier?
    /// The gate of that object (a subject's or a property's), for the reentrancy check.
    let gate: (any ReentrancyProbe)?
    /// For a plain subject's `signal` given a name: the subject's core (see ``SignalAnnex``). The named
    /// stage only records while the graph is on; otherwise it starts the subject's subscription as it is,
    /// so a `map` below it may still join the subject with one entry (W1 with named stages).
    @usableFromInline let plainSubject: (AnyObject & Sendable)?

    init(
        name: String?, operatorName: String, inputs: [SignalDebugInfo], source: AnyObject? = nil,
        plainSubject: (AnyObject & Sendable)? = nil
    ) {
        id = signalNumbers.add(1)
        self.name = name
        self.operatorName = operatorName
        self.inputs = inputs
        self.source = source.map(ObjectIdentifier.init)
        self.gate = source as? any ReentrancyProbe
        self.plainSubject = plainSubject
    }

    private init(copying other: SignalDebugInfo, name: String?) {
        id = signalNumbers.add(1)
        self.name = name
        operatorName = other.operatorName
        inputs = other.inputs
        source = other.source
        gate = other.gate
        plainSubject = other.plainSubject
    }

    /// The name the tools show: the given name, else the inputs' labels with the operator:
    /// `login.valid.map`, `combineLatest(a, b)`, `Signal(values:)`.
    package var label: String {
        if let name { return name }
        switch inputs.count {
        case 0: return operatorName
        case 1: return "\(inputs[0].label).\(operatorName)"
        default: return "\(operatorName)(\(inputs.map(\.label).joined(separator: ", ")))"
        }
    }

    /// A copy with `name`.
    package func named(_ name: String) -> SignalDebugInfo {
        SignalDebugInfo(copying: self, name: name)
    }

    /// A copy whose sender is `object`, read in place of this one if this one was just read.
    @usableFromInline
    func sent(by object: AnyObject) -> SignalDebugInfo {
        let copy = SignalDebugInfo(name: name, operatorName: operatorName, inputs: inputs, source: object)
        DebugThreadContext.current.replacePendingInput(self, with: copy)
        return copy
    }

    /// Called by `Signal.signal` for a signal that has debug info (through its annex, out of line, so that
    /// the getter of a signal without an annex is one load and one branch): while tracking, this signal is
    /// about to be an input of the next one made on this thread.
    func noteReadIfTracking() {
        if DebugSwitch.isTracking { noteRead() }
    }

    func noteRead() {
        DebugThreadContext.current.notePendingInput(self)
    }

    /// The debug info of a signal being made by `function` in `file` (while tracking), with the inputs
    /// read on this thread since the last signal was made — or `nil` when only names are tracked and
    /// nothing named flows into it.
    @usableFromInline
    static func made(by function: StaticString, in file: StaticString, type: Any.Type) -> SignalDebugInfo? {
        // The common case once a name exists (names stay on for the process): nothing named flows in and
        // the graph is off. Decided before any text is made: describing `function` costs thousands of
        // instructions, which every signal made would pay; and, while no thread has inputs pending,
        // before the thread-local lookup too.
        let graph = DebugSwitch.isOn(DebugSwitch.graph)
        if !graph && !DebugThreadContext.anyThreadHasPendingInputs { return nil }
        var inputs = DebugThreadContext.current.takePendingInputs()
        if inputs.isEmpty && !graph { return nil }
        let name = "\(function)"
        // Initializers and getters (`Signal(values:)`, `.empty`, a subject's `signal`) make sources: what
        // was read before them was read for something else.
        if name.hasPrefix("init(") || !name.contains("(") { inputs = [] }
        if inputs.isEmpty && !DebugSwitch.isOn(DebugSwitch.graph) { return nil }
        let info = SignalDebugInfo(
            name: nil, operatorName: operatorName(function: name, file: "\(file)"), inputs: inputs)
        // Made by a `signal` getter (a subject's, a property's): it is being read as an operator's input.
        if name == "signal" { info.noteRead() }
        return info
    }

    /// `map(_:)` → `map`; `init(values:)` → `Signal(values:)`; `empty` in Signal.swift → `Signal.empty`;
    /// a getter elsewhere (`signal` in SubjectCore.swift) → the file's type (`Subject`).
    static func operatorName(function: String, file: String) -> String {
        if function == "init(_:)" { return "Signal" }
        if function.hasPrefix("init(") { return "Signal" + function.dropFirst(4) }
        if let parenthesis = function.firstIndex(of: "(") {
            let name = String(function[..<parenthesis])
            return internalHelperNames[name] ?? name
        }
        let base = file.split(separator: "/").last.map { String($0.prefix { $0 != "." }) } ?? ""
        if base == "Signal" || base.isEmpty { return "Signal.\(function)" }
        for suffix in ["Core", "Storage"] where base.hasSuffix(suffix) {
            return String(base.dropLast(suffix.count))
        }
        return function == "signal" ? base : "\(base).\(function)"
    }
}

private let signalNumbers = RelaxedCounter()

/// The public names of the internal helpers that make the signals of several operators (`flatMap`,
/// `flatMapLatest`, `concatMap`, `flatten`, `switchToLatest` and `concat` all make theirs in `flattened`).
private let internalHelperNames = ["mergeSignals": "merge", "flattened": "flatten", "retrying": "retry"]

/// A subject's or a property's gate, as the reentrancy check reads it: only from the thread that owns it
/// (the one delivering), which alone appends to its local queue.
protocol ReentrancyProbe: AnyObject, Sendable {
    /// How many sends the owning thread queued while delivering.
    var reentrantQueueCount: Int { get }
    /// The last of them, described.
    var lastReentrantSend: String { get }
}
