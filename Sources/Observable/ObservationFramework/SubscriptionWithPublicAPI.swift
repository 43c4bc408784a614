import TetherEngine

// The tracking of `observe(\.path)` on `@Observable` objects (``FrameworkObservation``) in a build with
// `-D TETHER_OBSERVATION_PUBLIC_API`: Observation's public API only, for toolchains without the SPI that
// `SubscriptionWithSPI.swift` uses (see `Observe.swift`).
#if TETHER_OBSERVATION_PUBLIC_API
    import Observation

    /// Tracking with `withObservationTracking(_:onChange:)`, public API only. `onChange` is called in the
    /// setter's `willSet`, before the new value is stored, once; it schedules a re-read on the main queue,
    /// which evaluates the key path again under a new tracking and sends the value it reads. Sets made
    /// before that re-read runs are coalesced into the value it reads. A re-read already scheduled when
    /// the subscription is disposed does nothing.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    extension FrameworkObservation {
        /// Runs `apply` under an `onChange` tracking that reports to ``willChange(generation:)``.
        func track(generation mine: Int, _ apply: () -> Value) -> Value {
            let erased: any FrameworkObservationCallbacks = self
            return withObservationTracking(apply, onChange: { erased.willChange(generation: mine) })
        }

        /// Called on the setting thread before the new value is stored (or when disposed): schedules
        /// the re-read that runs after the set.
        func willChange(generation fired: Int) {
            let live = lock.withLock { !closed && fired == generation }
            guard live else { return }
            let erased: any FrameworkObservationCallbacks = self
            _ = QueueScheduler.main.schedule { erased.reevaluate() }
        }

        /// Re-reads the key path under a new tracking and sends the value.
        func reevaluate() {
            guard !lock.withLock({ closed }) else { return }
            guard let root else {
                mailbox?.post(.ended)
                return
            }
            let registrar = ObservationRegistrarLookup.registrar(of: root)
            let (value, _) = evaluate(root: root, registrar: registrar)
            mailbox?.post(.value(value))
        }

        /// The subscription ended: make every registration of it fire and remove itself.
        func cancel() {
            lock.withLock { closed = true }
            guard let root, let registrar = ObservationRegistrarLookup.registrar(of: root) else { return }
            registrar.willSet(root, keyPath: key)
        }
    }

    /// What Observation's and the main queue's `@Sendable` callbacks call on a
    /// ``FrameworkObservation`` (type-erased, so that the callbacks capture no generic metatype).
    protocol FrameworkObservationCallbacks: DeinitWatchCallback {
        func willChange(generation: Int)
        func reevaluate()
    }
#endif
