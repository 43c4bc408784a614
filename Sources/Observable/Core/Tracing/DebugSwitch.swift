import Synchronization
import TetherEngine

/// Which debugging tools are on, as the bits of the low byte, and above them (in units of
/// ``DebugSwitch/pendingInputsUnit``) how many threads have inputs pending (see
/// ``DebugThreadContext/anyThreadHasPendingInputs``): read with one relaxed load where a signal is made or
/// started, never per event. All bits are off by default, so an untouched program pays one load and one
/// branch per signal made and per subscription started, and nothing per event.
@usableFromInline
let debugFlags = Atomic<UInt>(0)

/// The debugging tools' switches (see ``TetherDebug``).
@usableFromInline
enum DebugSwitch {
    /// Names travel through operators (set by the first `named(_:)` and by every other tool).
    static let names: UInt = 1
    /// Subscriptions are registered in the live graph and their events pass through a recording sink.
    static let graph: UInt = 2
    /// Events are recorded into the trace.
    static let tracing: UInt = 4
    /// The opt-in checks run.
    static let checks: UInt = 8
    /// The switches' bits of ``debugFlags``.
    static let switches: UInt = 0xFF
    /// One thread with inputs pending, in ``debugFlags``.
    static let pendingInputsUnit: UInt = 0x100

    /// Whether any tool is on: signals being made learn their inputs.
    @inlinable
    static var isTracking: Bool { debugFlags.load(ordering: .relaxed) & 0xFF != 0 }

    /// Whether the live graph is on (a subject's `signal` is then a stage that records its deliveries).
    @inlinable
    static var isGraphOn: Bool { debugFlags.load(ordering: .relaxed) & 2 != 0 }

    /// Whether a signal being made or started must go through the tools' out-of-line code: a tool is on
    /// and either the graph is on or some thread has inputs pending (see
    /// ``DebugThreadContext/anyThreadHasPendingInputs``). Once only names are on and nothing named is
    /// being wired, a signal made pays one load and two branches, and no call.
    @inlinable
    static var needsSignalTracking: Bool {
        let word = debugFlags.load(ordering: .relaxed)
        return _slowPath(word & 0xFF != 0) && word & (2 | ~0xFF) != 0
    }

    /// Whether the opt-in checks run.
    @inlinable
    static var isChecking: Bool { debugFlags.load(ordering: .relaxed) & 8 != 0 }

    static func isOn(_ bit: UInt) -> Bool {
        debugFlags.load(ordering: .relaxed) & bit != 0
    }

    static func set(_ bit: UInt, _ on: Bool) {
        if on {
            debugFlags.bitwiseOr(bit, ordering: .relaxed)
        } else {
            debugFlags.bitwiseAnd(~bit, ordering: .relaxed)
        }
    }
}
