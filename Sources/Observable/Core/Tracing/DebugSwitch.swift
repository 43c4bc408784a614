import TetherEngine

/// Which debugging tools are on, as the bits of the low byte, and above them (in units of
/// ``DebugSwitch/pendingInputsUnit``) how many threads have inputs pending (see
/// ``DebugThreadContext/anyThreadHasPendingInputs``): read with one relaxed load where a signal is made or
/// started, never per event. All bits are off by default, so an untouched program pays one load and one
/// branch per signal made and per subscription started, and nothing per event.
///
/// The switches are changed only under ``DebugSwitch/switches``'s lock (the word mirrors them), the count
/// by each thread for itself; both by adding, so neither update loses the other's.
@usableFromInline
let debugFlags = RelaxedCounter()

/// The debugging tools' switches (see ``TetherDebug``).
@usableFromInline
enum DebugSwitch {
    /// Names travel through operators (set by the first `named(_:)` and by every other tool).
    static let names = 1
    /// Subscriptions are registered in the live graph and their events pass through a recording sink.
    static let graph = 2
    /// Events are recorded into the trace.
    static let tracing = 4
    /// The opt-in checks run.
    static let checks = 8
    /// The switches' bits of ``debugFlags``.
    static let switchBits = 0xFF
    /// One thread with inputs pending, in ``debugFlags``.
    static let pendingInputsUnit = 0x100
    /// The switches that are on: the authority that ``debugFlags``' low byte mirrors. Turning a tool on or
    /// off is rare, so it takes a lock; reading a switch is one relaxed load of the mirror.
    static let switches = LockedState(0)

    /// Whether any tool is on: signals being made learn their inputs.
    @inlinable
    static var isTracking: Bool { debugFlags.value & 0xFF != 0 }

    /// Whether the live graph is on (a subject's `signal` is then a stage that records its deliveries).
    @inlinable
    static var isGraphOn: Bool { debugFlags.value & 2 != 0 }

    /// Whether a signal being made or started must go through the tools' out-of-line code: a tool is on
    /// and either the graph is on or some thread has inputs pending (see
    /// ``DebugThreadContext/anyThreadHasPendingInputs``). Once only names are on and nothing named is
    /// being wired, a signal made pays one load and two branches, and no call.
    @inlinable
    static var needsSignalTracking: Bool {
        let word = debugFlags.value
        return _slowPath(word & 0xFF != 0) && word & (2 | ~0xFF) != 0
    }

    /// Whether the opt-in checks run.
    @inlinable
    static var isChecking: Bool { debugFlags.value & 8 != 0 }

    static func isOn(_ bit: Int) -> Bool {
        debugFlags.value & bit != 0
    }

    /// Turns `bit` on or off. Already as asked, it returns without the lock (`named(_:)` turns names on
    /// for every signal it names).
    static func set(_ bit: Int, _ on: Bool) {
        if isOn(bit) == on { return }
        setSwitches { on ? $0 | bit : $0 & ~bit }
    }

    /// Changes the switches that are on to `change(current)`, and ``debugFlags``' low byte with them: by
    /// the difference, added, so that a thread's concurrent change of the count above it is kept.
    static func setSwitches(_ change: (Int) -> Int) {
        switches.withLock { current in
            let new = change(current) & switchBits
            debugFlags.add(new - current)
            current = new
        }
    }
}
