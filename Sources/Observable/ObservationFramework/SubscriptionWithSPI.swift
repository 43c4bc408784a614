// The default implementation of `observe(\.path)` on `@Observable` objects: synchronous, after the set,
// through `withObservationTracking(_:didSet:)`, which the toolchain ships as SPI (`@_spi(SwiftUI)`).
// A build with `-D TETHER_OBSERVATION_PUBLIC_API` leaves this file out and uses
// `SubscriptionWithPublicAPI.swift` instead (see `Observe.swift`).
#if !TETHER_OBSERVATION_PUBLIC_API
    @_spi(SwiftUI) import Observation

    /// One subscription to `observe(\.path)` on an `@Observable` object.
    ///
    /// Each evaluation of the key path runs inside `withObservationTracking(_:didSet:)`, which also
    /// registers an access to the subscription's private key path (`key`) on the root's registrar.
    /// A `didSet` tracking keeps firing until it is cancelled, so:
    /// - when the property that changed is the observed key path itself (`\.score`: one tracked
    ///   property of the root), a new evaluation would read exactly that property again: the tracking
    ///   stays installed and only the value is read — no tracking is installed or removed per change;
    /// - any other change (a link of a chain, a dependency of a computed property) re-evaluates under a
    ///   new tracking, cancels the one that fired, and sends the new value, so the dependencies follow
    ///   the evaluation.
    ///
    /// Disposing notifies `key`, which makes the current tracking (and the lifetime watch) fire and
    /// remove itself. The root's deinitialization is seen through ``ObservableDeinitWatch``.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    final class FrameworkObservation<Root: AnyObject & Observation.Observable, Value>:
        FrameworkObservationCallbacks, @unchecked Sendable
    {
        // Safety: `generation`, `persistentGeneration` and `closed` are only accessed under `lock`;
        // the rest is immutable after `start`, and the mailbox serializes delivery.
        weak var root: Root?
        let keyPath: KeyPath<Root, Value>
        /// The key path only this subscription observes.
        let key: KeyPath<Root, Void>
        let lock = Lock()
        var generation = 0
        /// The generation whose tracking stays installed across changes, or -1.
        var persistentGeneration = -1
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
                didSet: { tracking in erased.changed(tracking, generation: mine) })
            return (value, readSomething)
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
