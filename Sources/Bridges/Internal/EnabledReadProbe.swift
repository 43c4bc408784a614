import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells whether evaluating a key path reads a given registry's `isEnabled` — how a control's
/// `observe(\.isEnabled)` is recognized (key paths to protocol-extension properties made in generic and
/// concrete code do not compare equal).
///
/// `ActionRegistry.isEnabled`'s getter checks `depth` with one relaxed load and reports to the calling
/// thread's probe only while one is installed.
enum EnabledReadProbe {
    /// How many threads are probing right now.
    static let depth = Atomic<Int>(0)

    /// The thread's probe: the registry looked for and whether it was read.
    final class Probe {
        let registry: ObjectIdentifier
        var wasRead = false
        init(registry: ObjectIdentifier) { self.registry = registry }
    }

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Tether: pthread_key_create failed (\(status))")
        return key
    }()

    /// Runs `body` and returns whether it read the `isEnabled` of `registry`.
    static func reads(_ registry: AnyObject, during body: () -> Void) -> Bool {
        let probe = Probe(registry: ObjectIdentifier(registry))
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(probe).toOpaque())
        depth.add(1, ordering: .relaxed)
        defer {
            depth.subtract(1, ordering: .relaxed)
            pthread_setspecific(key, previous)
        }
        withExtendedLifetime(probe) { body() }
        return probe.wasRead
    }

    /// Called by the getter of `isEnabled`.
    @inline(__always)
    static func noteRead(of registry: AnyObject) {
        guard depth.load(ordering: .relaxed) != 0, let raw = pthread_getspecific(key) else { return }
        let probe = Unmanaged<Probe>.fromOpaque(raw).takeUnretainedValue()
        if probe.registry == ObjectIdentifier(registry) { probe.wasRead = true }
    }
}
