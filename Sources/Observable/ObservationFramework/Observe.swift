// How Tether observes `@Observable` objects (Swift's Observation framework). Two implementations of
// the subscription exist, chosen when the library is built:
// - by default, `SubscriptionWithSPI.swift`: the toolchain's `withObservationTracking(_:didSet:)`,
//   which is SPI (`@_spi(SwiftUI)`) — the only synchronous after-the-set hook Observation offers;
// - with `-D TETHER_OBSERVATION_PUBLIC_API` (`swift build -Xswiftc -DTETHER_OBSERVATION_PUBLIC_API`),
//   `SubscriptionWithPublicAPI.swift`: only public API (`withObservationTracking(_:onChange:)`,
//   whose `onChange` fires in `willSet`, before the new value is stored), re-reading on the main queue.
// This file holds what both share; it imports no SPI.
import Observation
import TetherEngine

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
        Signal.weaklyRooted(at: self) { root, sink, lifetime in
            FrameworkObservation.start(root: root, keyPath: keyPath, sink: sink, lifetime: lifetime)
        }
    }
}

/// One subscription to `observe(\.path)` on an `@Observable` object. Its state, start, evaluation and end
/// are the same in both builds; how an evaluation is tracked and what a change does is the build's
/// (`SubscriptionWithSPI.swift` by default, `SubscriptionWithPublicAPI.swift` with
/// `-D TETHER_OBSERVATION_PUBLIC_API`), in an extension that provides `track(generation:_:)`, the change
/// callbacks and `cancel()`.
///
/// Each evaluation of the key path runs under a tracking that also registers an access to the
/// subscription's private key path (`key`) on the root's registrar. Disposing notifies `key`, which makes
/// the current tracking (and the lifetime watch) fire and remove itself. The root's deinitialization is
/// seen through ``ObservableDeinitWatch``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class FrameworkObservation<Root: AnyObject & Observation.Observable, Value>:
    FrameworkObservationCallbacks, @unchecked Sendable
{
    // Safety: `generation`, `closed` and (SPI build) `persistentGeneration` are only accessed under
    // `lock`; the rest is immutable after `start`, and the mailbox serializes delivery. (In the public-API
    // build, evaluations after the first run on the main queue.)
    enum Input {
        case value(Value)
        case ended
    }

    weak var root: Root?
    let keyPath: KeyPath<Root, Value>
    /// The key path only this subscription observes.
    let key: KeyPath<Root, Void>
    let lock = Lock()
    /// The number of the latest evaluation: a tracking installed by an earlier one is stale when it fires.
    var generation = 0
    #if !TETHER_OBSERVATION_PUBLIC_API
        /// The generation whose tracking stays installed across changes, or -1.
        var persistentGeneration = -1
    #endif
    var closed = false
    var mailbox: Mailbox<Input>?
    let resourceToken = ResourceToken()

    init(root: Root, keyPath: KeyPath<Root, Value>) {
        self.root = root
        self.keyPath = keyPath
        self.key = ObservationSubscriptionID.make(for: Root.self)
    }

    /// Evaluates the key path once under tracking and sends the value; when it reads no tracked
    /// property, sends it and completes. Otherwise the subscription also ends when `root` deinitializes.
    static func start(
        root: Root, keyPath: KeyPath<Root, Value>, sink: Sink<Value, Never>, lifetime: CompositeDisposable
    ) {
        let observation = FrameworkObservation(root: root, keyPath: keyPath)
        let mailbox = Mailbox<Input>(lifetime: lifetime) { input in
            switch input {
            case .value(let value):
                sink.send(.next(value))
            case .ended:
                sink.send(.completed)
                lifetime.dispose()
            }
        }
        observation.mailbox = mailbox
        let registrar = ObservationRegistrarLookup.registrar(of: root)
        let erased: any FrameworkObservationCallbacks = observation
        lifetime.add(AnyDisposable { erased.cancel() })

        let (value, tracked) = observation.evaluate(root: root, registrar: registrar, probe: true)
        guard tracked else {
            ObservationWarning.keyPathObservesNothing(keyPath)
            mailbox.post(.value(value))
            mailbox.post(.ended)
            return
        }
        if let registrar {
            weak let ending: (any DeinitWatchCallback)? = observation
            ObservableDeinitWatch.watch(root, registrar: registrar, key: observation.key) { ending?.end() }
        } else {
            ObservationWarning.noLifetimeStorage(Root.self)
        }
        mailbox.post(.value(value))
    }

    /// Evaluates the key path under a new tracking (the build's `track`); returns the value and (when
    /// `probe`) whether it read any tracked property.
    func evaluate(root: Root, registrar: ObservationRegistrar?, probe: Bool = false) -> (Value, Bool) {
        let mine = lock.withLock { () -> Int in
            generation += 1
            return generation
        }
        var readSomething = true
        let value = track(generation: mine) { () -> Value in
            if let registrar { registrar.access(root, keyPath: key) }
            guard probe else { return root[keyPath: keyPath] }
            let (value, tracked) = ObservationAccessProbe.run { root[keyPath: keyPath] }
            readSomething = tracked
            return value
        }
        return (value, readSomething)
    }

    func end() {
        mailbox?.post(.ended)
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
    private static let last = RelaxedCounter()

    static func make<Root: Observation.Observable>(for root: Root.Type) -> KeyPath<Root, Void> {
        let id = last.add(1)
        return \Root.[tetherSubscription: id]
    }
}

/// Finds the registrar the `@Observable` macro stores in each object (`_$observationRegistrar`).
///
/// The copy it returns shares the registrar's state; it must not be kept (holding it would keep that
/// state alive past the object's deinit, which is how Tether sees the deinit).
///
/// Where the registrar is (which class of the hierarchy, which stored property) is found once per
/// class, by enumerating the object's `Mirror`, and cached. Later lookups reflect only that one
/// property: enumerating every child would copy (read) every stored property of the object, which
/// races with a thread setting one of them — a lookup happens when a subscription is disposed, on
/// whichever thread disposes it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
enum ObservationRegistrarLookup {
    /// Where a class keeps its registrar: how many superclass steps up, and which child there.
    struct Location: Sendable {
        let depth: Int
        let index: Int
    }

    /// The locations found so far, by class.
    private static let cache = LockedState<[ObjectIdentifier: Location?]>([:])

    static func registrar(of object: AnyObject) -> ObservationRegistrar? {
        let type = ObjectIdentifier(Swift.type(of: object))
        let cached = cache.withLock { $0[type] }
        let location: Location?
        if let cached {
            location = cached
        } else {
            location = find(in: object)
            cache.withLock { $0[type] = .some(location) }
        }
        guard let location else { return nil }
        var mirror = Mirror(reflecting: object)
        for _ in 0..<location.depth {
            guard let superclass = mirror.superclassMirror else { return nil }
            mirror = superclass
        }
        let children = mirror.children
        guard location.index < children.count else { return nil }
        let child = children[children.index(children.startIndex, offsetBy: location.index)]
        return child.value as? ObservationRegistrar
    }

    private static func find(in object: AnyObject) -> Location? {
        var mirror: Mirror? = Mirror(reflecting: object)
        var depth = 0
        while let current = mirror {
            for (index, child) in current.children.enumerated()
            where child.label == "_$observationRegistrar" && child.value is ObservationRegistrar {
                return Location(depth: depth, index: index)
            }
            mirror = current.superclassMirror
            depth += 1
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
