import Observable
import TetherEngine
import TetherShims

/// Tells whether evaluating a key path reads a given registry's `isEnabled` — how a control's
/// `observe(\.isEnabled)` is recognized (key paths to protocol-extension properties made in generic and
/// concrete code do not compare equal).
///
/// `ActionRegistry.isEnabled`'s getter checks `depth` with one relaxed load and reports to the calling
/// thread's probe only while one is installed.
enum EnabledReadProbe {
    /// How many threads are probing right now.
    static let depth = RelaxedCounter()

    /// The thread's probe: the registry looked for and whether it was read.
    final class Probe {
        let registry: ObjectIdentifier
        var wasRead = false
        init(registry: ObjectIdentifier) { self.registry = registry }
    }

    /// Runs `body` and returns whether it read the `isEnabled` of `registry`. The thread's probe is in a
    /// thread-local slot (`tether_enabled_read_probe`, TetherShims).
    static func reads(_ registry: AnyObject, during body: () -> Void) -> Bool {
        let probe = Probe(registry: ObjectIdentifier(registry))
        _ = withObjectInThreadSlot(
            probe, read: tether_enabled_read_probe, write: tether_set_enabled_read_probe, active: depth, body)
        return probe.wasRead
    }

    /// Called by the getter of `isEnabled`.
    @inline(__always)
    static func noteRead(of registry: AnyObject) {
        guard depth.value != 0, let raw = tether_enabled_read_probe() else { return }
        let probe = Unmanaged<Probe>.fromOpaque(raw).takeUnretainedValue()
        if probe.registry == ObjectIdentifier(registry) { probe.wasRead = true }
    }
}
