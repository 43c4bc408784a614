import Synchronization

/// Which debugging tools are on, as bits of one word: read with one relaxed load where a signal is made
/// or started, never per event. All bits are off by default, so an untouched program pays one load and
/// one branch per signal made and per subscription started, and nothing per event.
@usableFromInline
let debugFlags = Atomic<UInt8>(0)

/// The debugging tools' switches (see ``TetherDebug``).
@usableFromInline
enum DebugSwitch {
    /// Names travel through operators (set by the first `named(_:)` and by every other tool).
    static let names: UInt8 = 1
    /// Subscriptions are registered in the live graph and their events pass through a recording sink.
    static let graph: UInt8 = 2
    /// Events are recorded into the trace.
    static let tracing: UInt8 = 4
    /// The opt-in checks run.
    static let checks: UInt8 = 8

    /// Whether any tool is on: signals being made learn their inputs.
    @inlinable
    static var isTracking: Bool { debugFlags.load(ordering: .relaxed) != 0 }

    /// Whether the opt-in checks run.
    @inlinable
    static var isChecking: Bool { debugFlags.load(ordering: .relaxed) & 8 != 0 }

    static func isOn(_ bit: UInt8) -> Bool {
        debugFlags.load(ordering: .relaxed) & bit != 0
    }

    static func set(_ bit: UInt8, _ on: Bool) {
        if on {
            debugFlags.bitwiseOr(bit, ordering: .relaxed)
        } else {
            debugFlags.bitwiseAnd(~bit, ordering: .relaxed)
        }
    }
}
