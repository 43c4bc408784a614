// How Tether observes `@Observable` objects (Swift's Observation framework). Two implementations of
// the subscription exist, chosen when the library is built:
// - by default, `FrameworkObservation.swift`: the toolchain's `withObservationTracking(_:didSet:)`,
//   which is SPI (`@_spi(SwiftUI)`) — the only synchronous after-the-set hook Observation offers;
// - with `-D TETHER_OBSERVATION_PUBLIC_API` (`swift build -Xswiftc -DTETHER_OBSERVATION_PUBLIC_API`),
//   `FrameworkObservationPublicAPI.swift`: only public API (`withObservationTracking(_:onChange:)`,
//   whose `onChange` fires in `willSet`, before the new value is stored), re-reading on the main queue.
// This file holds what both share; it imports no SPI.
import Observation
import Synchronization

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observation.Observable where Self: AnyObject {
    /// The value at `keyPath` now, then after every change of an Observation-tracked property it
    /// depends on; completes when this object deinitializes — `observe` for `@Observable` classes,
    /// with the same semantics as ``KeyPathObservable/observe(_:)``.
    ///
    /// Delivery context: each new value is read and sent synchronously on the thread that set the
    /// property, right after the set (from Observation's `didSet` tracking), never before it. The key
    /// path is re-tracked whenever one of its dependencies changes, so chains and computed properties
    /// follow their dependencies.
    ///
    /// A library built with `-D TETHER_OBSERVATION_PUBLIC_API` uses only Observation's public API, which
    /// has no after-the-set hook: there, a change schedules a re-read on the main queue
    /// (`QueueScheduler.main`), which sends the value the key path has then. Values arrive
    /// asynchronously, after the setting code has returned to the main queue, and sets made before that
    /// re-read are coalesced into the latest value. Use that build with models owned by the main thread
    /// (as `@MainActor` models are).
    ///
    /// Differences that come from Observation itself:
    /// - the `@Observable` macro does not notify a set of an `Equatable` property to an equal value, so
    ///   such sets send nothing (`@Observed` sends every set);
    /// - Observation has no public way to cancel a tracking before it fires: when a subscription is
    ///   disposed, Tether pokes the object's registrar (on a key path only that subscription observes)
    ///   so that its registrations remove themselves at once.
    /// - deinitialization is seen through the `@Observable` macro's registrar; a class that conforms to
    ///   `Observable` by hand reports an ``ObservationWarning`` (`.noLifetimeStorage`) and its
    ///   observations complete on the next change after it is gone.
    ///
    /// If the key path reads no tracked property, the signal sends the current value and completes
    /// (with an ``ObservationWarning``, `.keyPathObservesNothing`).
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import Observation
    ///
    /// @Observation.Observable final class Player {   // `Observable` alone names Tether's module
    ///     var score = 0
    /// }
    ///
    /// func follow(_ player: Player) {
    ///     player.observe(\.score).subscribe(next: { print($0) })   // 0
    ///     player.score = 10                                         // 10
    /// }
    /// ```
    /// Marble (sets of `score`): `0--10--20-` → `0--10--20-`
    public func observe<T>(_ keyPath: KeyPath<Self, T>) -> Signal<T, Never> {
        Signal(unsafeStart: { [weak self] sink, lifetime in
            guard let self else {
                sink.send(.completed)
                lifetime.dispose()
                return
            }
            FrameworkObservation.start(root: self, keyPath: keyPath, sink: sink, lifetime: lifetime)
        })
    }
}


/// A key path of an `@Observable` object that no property uses: each Tether subscription gets its own
/// (`\Root.[tetherSubscription: id]`), accesses it in every tracking it installs, and notifies it when
/// it is disposed, which makes exactly its own registrations fire and remove themselves.
extension Observation.Observable {
    subscript(tetherSubscription id: Int) -> Void { () }
}

/// Numbers the subscriptions' private key paths.
enum ObservationSubscriptionID {
    private static let last = Atomic<Int>(0)

    static func make<Root: Observation.Observable>(for root: Root.Type) -> KeyPath<Root, Void> {
        let id = last.add(1, ordering: .relaxed).newValue
        return \Root.[tetherSubscription: id]
    }
}

/// Watches an `@Observable` object's deinitialization through its registrar: a tracking of the
/// subscription's private key path holds a token; the registrar releases it, unfired, when the object
/// deinitializes (and `ended` runs), or fires it when the subscription pokes that key path on disposal
/// (and `ended` does not run). Public API only.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
enum ObservableLifetimeWatch {
    static func watch<Root: AnyObject & Observation.Observable>(
        _ root: Root, registrar: ObservationRegistrar, key: KeyPath<Root, Void>,
        ended: @escaping @Sendable () -> Void
    ) {
        let state = LifetimeWatchState()
        let token = LifetimeToken {
            if !state.fired.load(ordering: .acquiring) { ended() }
        }
        withObservationTracking(
            { registrar.access(root, keyPath: key) },
            onChange: {
                state.fired.store(true, ordering: .releasing)
                withExtendedLifetime(token) {}
            })
    }
}

/// What a lifetime watch calls when the observed object is gone (type-erased, so that the `@Sendable`
/// callback captures no generic metatype).
protocol FrameworkObservationEnding: AnyObject, Sendable {
    /// Completes the subscription.
    func end()
}

/// Whether a lifetime watch fired (the subscription was disposed) rather than being released.
final class LifetimeWatchState: Sendable {
    let fired = Atomic<Bool>(false)
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

/// Finds the registrar the `@Observable` macro stores in each object (`_$observationRegistrar`).
///
/// The copy `Mirror` returns shares the registrar's state; it must not be kept (holding it would keep
/// that state alive past the object's deinit).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
enum ObservationRegistrarLookup {
    static func registrar(of object: AnyObject) -> ObservationRegistrar? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children where child.label == "_$observationRegistrar" {
                if let registrar = child.value as? ObservationRegistrar { return registrar }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}

/// Tells whether a closure read any Observation-tracked property.
///
/// The public `withObservationTracking(_:onChange:)` builds its `onChange` argument (an autoclosure)
/// only when the closure accessed something: that is the probe. Its accesses also merge into an
/// enclosing tracking, as with any nested tracking. The probe's own registration is a no-op that
/// removes itself at the first change.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
enum ObservationAccessProbe {
    static func run<T>(_ body: () -> T) -> (T, Bool) {
        var tracked = false
        func noOp() -> @Sendable () -> Void {
            tracked = true
            return {}
        }
        let value = withObservationTracking(body, onChange: noOp())
        return (value, tracked)
    }
}
