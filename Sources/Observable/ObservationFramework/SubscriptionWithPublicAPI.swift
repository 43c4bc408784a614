// The implementation of `observe(\.path)` on `@Observable` objects in a build with
// `-D TETHER_OBSERVATION_PUBLIC_API`: Observation's public API only, for toolchains without the SPI
// that `SubscriptionWithSPI.swift` uses (see `Observe.swift`).
#if TETHER_OBSERVATION_PUBLIC_API
    import Observation

    /// One subscription to `observe(\.path)` on an `@Observable` object, with public API only.
    ///
    /// Each evaluation of the key path runs inside `withObservationTracking(_:onChange:)`, which also
    /// registers an access to the subscription's private key path (`key`). `onChange` is called in
    /// the setter's `willSet`, before the new value is stored, once; it schedules a re-read on the main
    /// queue, which evaluates the key path again under a new tracking and sends the value it reads.
    /// Sets made before that re-read runs are coalesced into the value it reads.
    ///
    /// Disposing notifies `key`, which makes the current tracking (and the lifetime watch) fire and
    /// remove itself; a re-read already scheduled does nothing. The root's deinitialization is seen
    /// through ``ObservableDeinitWatch``.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    final class FrameworkObservation<Root: AnyObject & Observation.Observable, Value>:
        FrameworkObservationCallbacks, @unchecked Sendable
    {
        // Safety: `generation` and `closed` are only accessed under `lock`; the rest is immutable
        // after `start`; evaluations run on the main queue (after the first, on the subscribing
        // thread), and the mailbox serializes delivery.
        weak var root: Root?
        let keyPath: KeyPath<Root, Value>
        /// The key path only this subscription observes.
        let key: KeyPath<Root, Void>
        let lock = Lock()
        var generation = 0
        var closed = false
        var mailbox: Mailbox<Input>?
        let resourceToken = ResourceToken()

        init(root: Root, keyPath: KeyPath<Root, Value>) {
            self.root = root
            self.keyPath = keyPath
            self.key = ObservationSubscriptionID.make(for: Root.self)
        }

        /// Evaluates the key path under tracking; returns the value and (when `probe`) whether it read
        /// any tracked property.
        func evaluate(root: Root, registrar: ObservationRegistrar?, probe: Bool = false) -> (Value, Bool) {
            let mine = lock.withLock { () -> Int in
                generation += 1
                return generation
            }
            let erased: any FrameworkObservationCallbacks = self
            var readSomething = true
            let value = withObservationTracking(
                { () -> Value in
                    if let registrar { registrar.access(root, keyPath: key) }
                    guard probe else { return root[keyPath: keyPath] }
                    let (value, tracked) = ObservationAccessProbe.run { root[keyPath: keyPath] }
                    readSomething = tracked
                    return value
                },
                onChange: { erased.willChange(generation: mine) })
            return (value, readSomething)
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
