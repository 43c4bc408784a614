import TetherEngine

// The default tracking of `observe(\.path)` on `@Observable` objects (``FrameworkObservation``):
// synchronous, after the set, through `withObservationTracking(_:didSet:)`, which the toolchain ships as SPI
// (`@_spi(SwiftUI)`). A build with `-D TETHER_OBSERVATION_PUBLIC_API` leaves this file out and uses
// `SubscriptionWithPublicAPI.swift` instead (see `Observe.swift`).
#if !TETHER_OBSERVATION_PUBLIC_API
    @_spi(SwiftUI) import Observation

    /// Tracking with `withObservationTracking(_:didSet:)`. A `didSet` tracking keeps firing until it is
    /// cancelled, so:
    /// - when the property that changed is the observed key path itself (`\.score`: one tracked
    ///   property of the root), a new evaluation would read exactly that property again: the tracking
    ///   stays installed and only the value is read — no tracking is installed or removed per change;
    /// - any other change (a link of a chain, a dependency of a computed property) re-evaluates under a
    ///   new tracking, cancels the one that fired, and sends the new value, so the dependencies follow
    ///   the evaluation.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    extension FrameworkObservation {
        /// Runs `apply` under a `didSet` tracking that reports to ``changed(_:generation:)``.
        func track(generation mine: Int, _ apply: () -> Value) -> Value {
            let erased: any FrameworkObservationCallbacks = self
            return withObservationTracking(apply, didSet: { tracking in erased.changed(tracking, generation: mine) })
        }

        /// A tracked property changed, or this subscription was disposed (its key was notified).
        func changed(_ tracking: ObservationTracking, generation fired: Int) {
            lock.lock()
            let current = generation
            let closed = self.closed
            let persistent = fired == persistentGeneration
            lock.unlock()
            guard !closed, fired == current, let root else {
                tracking.cancel()
                if root == nil { mailbox?.post(.ended) }
                return
            }
            if persistent {
                mailbox?.post(.value(root[keyPath: keyPath]))
                return
            }
            if let changed = tracking.changed, changed == keyPath {
                lock.withLock { persistentGeneration = fired }
                mailbox?.post(.value(root[keyPath: keyPath]))
                return
            }
            let registrar = ObservationRegistrarLookup.registrar(of: root)
            let (value, _) = evaluate(root: root, registrar: registrar)
            tracking.cancel()
            mailbox?.post(.value(value))
        }

        /// The subscription ended: make every registration of it fire and remove itself.
        func cancel() {
            lock.withLock { closed = true }
            guard let root, let registrar = ObservationRegistrarLookup.registrar(of: root) else { return }
            registrar.willSet(root, keyPath: key)
            registrar.didSet(root, keyPath: key)
        }
    }

    /// What Observation's `@Sendable` callbacks call on a ``FrameworkObservation`` (type-erased, so that
    /// the callbacks capture no generic metatype).
    protocol FrameworkObservationCallbacks: DeinitWatchCallback {
        func changed(_ tracking: ObservationTracking, generation: Int)
    }
#endif
