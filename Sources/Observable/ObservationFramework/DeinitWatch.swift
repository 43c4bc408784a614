import Observation
import TetherEngine

/// Watches an `@Observable` object's deinitialization through its registrar: a tracking of the
/// subscription's private key path holds a token; the registrar releases it, unfired, when the object
/// deinitializes (and `ended` runs), or fires it when the subscription pokes that key path on disposal
/// (and `ended` does not run). Public API only.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
enum ObservableDeinitWatch {
    static func watch<Root: Observation.Observable>(
        _ root: Root, registrar: ObservationRegistrar, key: KeyPath<Root, Void>,
        ended: @escaping @Sendable () -> Void
    ) {
        let state = DeinitWatchState()
        let token = LifetimeToken {
            if !state.fired.isSet { ended() }
        }
        withObservationTracking(
            { registrar.access(root, keyPath: key) },
            onChange: {
                state.fired.raise()
                withExtendedLifetime(token) {}
            })
    }
}

/// What a deinit watch calls when the observed object is gone (type-erased, so that the `@Sendable`
/// callback captures no generic metatype).
protocol DeinitWatchCallback: AnyObject, Sendable {
    /// Completes the subscription.
    func end()
    /// The subscription was disposed: removes its registrations from the object.
    func cancel()
}

/// Whether a deinit watch fired (the subscription was disposed) rather than being released.
final class DeinitWatchState: Sendable {
    let fired = AtomicFlag()
}

/// Runs a closure when deinitialized.
final class LifetimeToken: Sendable {
    let resourceToken = ResourceToken()
    let onDeinit: @Sendable () -> Void

    init(_ onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}
