// The toolchain's `withObservationTracking(_:didSet:)` is SPI (`@_spi(SwiftUI)`): it is the only
// synchronous after-the-set hook Observation offers (the public `onChange:` fires in `willSet`, before
// the new value is stored, and the public `Observations` sequence is asynchronous and coalesces).
@_spi(SwiftUI) import Observation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observation.Observable where Self: AnyObject {
    /// The value at `keyPath` now, then after every change of an Observation-tracked property it
    /// depends on; completes when this object deinitializes — `observe` for `@Observable` classes,
    /// with the same semantics as ``KeyPathObservable/observe(_:)``.
    ///
    /// Delivery context: each new value is read and sent synchronously on the thread that set the
    /// property, right after the set (from Observation's `didSet` tracking), never before it. The key
    /// path is re-tracked on every change, so chains and computed properties follow their dependencies.
    ///
    /// Differences that come from Observation itself:
    /// - the `@Observable` macro does not notify a set of an `Equatable` property to an equal value, so
    ///   such sets send nothing (`@Observed` sends every set);
    /// - Observation has no public way to cancel a tracking before it fires: when a subscription is
    ///   disposed, Tether pokes the object's registrar (on a key path only Tether observes) so that its
    ///   registrations remove themselves at once.
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

/// One subscription to `observe(\.path)` on an `@Observable` object.
///
/// Each evaluation of the key path runs inside `withObservationTracking(_:didSet:)`, which also
/// registers an access to `\Root.self` on the root's registrar — a key path nobody but Tether observes.
/// When a tracked property changes, the `didSet` callback re-evaluates (installing a new tracking),
/// cancels the tracking that fired, and posts the value to the mailbox that delivers it. Disposing
/// posts a `didSet` for `\Root.self`, which makes the current tracking fire and cancel itself.
///
/// The root's deinitialization is seen through a separate tracking registered only on the root's
/// registrar: it holds a token whose deinit ends the subscription, and the registrar releases it when the
/// root deinitializes.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class FrameworkObservation<Root: AnyObject & Observation.Observable, Value>:
    FrameworkObservationCallbacks, @unchecked Sendable
{
    // Safety: `generation` and `closed` are only accessed under `lock`; the rest is immutable after
    // `start`, and the mailbox serializes delivery.
    enum Input {
        case value(Value)
        case ended
    }

    weak var root: Root?
    let keyPath: KeyPath<Root, Value>
    let lock = Lock()
    var generation = 0
    var closed = false
    var mailbox: Mailbox<Input>?

    init(root: Root, keyPath: KeyPath<Root, Value>) {
        self.root = root
        self.keyPath = keyPath
    }

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
        lifetime.add(AnyDisposable { erased.close() })

        let (value, tracked) = observation.evaluate(root: root, registrar: registrar, probe: true)
        guard tracked else {
            ObservationWarning.keyPathObservesNothing(keyPath)
            mailbox.post(.value(value))
            mailbox.post(.ended)
            return
        }
        if let registrar {
            observation.watchLifetime(of: root, registrar: registrar)
        } else {
            ObservationWarning.noLifetimeStorage(Root.self)
        }
        mailbox.post(.value(value))
    }

    /// Evaluates the key path under tracking; returns the value and (when `probe`) whether it read any
    /// tracked property.
    func evaluate(root: Root, registrar: ObservationRegistrar?, probe: Bool = false) -> (Value, Bool) {
        let mine = lock.withLock { () -> Int in
            generation += 1
            return generation
        }
        let erased: any FrameworkObservationCallbacks = self
        var readSomething = true
        let value = withObservationTracking(
            { () -> Value in
                if let registrar { registrar.access(root, keyPath: \Root.self) }
                guard probe else { return root[keyPath: keyPath] }
                let (value, tracked) = ObservationAccessProbe.run { root[keyPath: keyPath] }
                readSomething = tracked
                return value
            },
            didSet: { tracking in erased.changed(tracking, generation: mine) })
        return (value, readSomething)
    }

    /// A tracked property changed (or Tether poked `\Root.self`).
    func changed(_ tracking: ObservationTracking, generation fired: Int) {
        let (current, closed) = lock.withLock { (generation, self.closed) }
        guard !closed, fired == current, let root else {
            tracking.cancel()
            if root == nil { mailbox?.post(.ended) }
            return
        }
        if let changed = tracking.changed, changed == \Root.self as AnyKeyPath {
            return  // another subscription's poke
        }
        let registrar = ObservationRegistrarLookup.registrar(of: root)
        let (value, _) = evaluate(root: root, registrar: registrar)
        tracking.cancel()
        mailbox?.post(.value(value))
    }

    /// Registers, on the root's registrar only, a tracking whose token ends the subscription when the
    /// registrar releases it (at the root's deinit, or when this subscription cancels it).
    func watchLifetime(of root: Root, registrar: ObservationRegistrar) {
        weak let erased: (any FrameworkObservationCallbacks)? = self
        let token = LifetimeToken { erased?.end() }
        withObservationTracking(
            { registrar.access(root, keyPath: \Root.self) },
            didSet: { tracking in
                if erased?.isClosed ?? true {
                    tracking.cancel()
                } else {
                    withExtendedLifetime(token) {}
                }
            })
    }

    var isClosed: Bool { lock.withLock { closed } }

    func end() {
        mailbox?.post(.ended)
    }

    /// The subscription ended: make every registration of it fire and cancel itself.
    func close() {
        lock.withLock { closed = true }
        guard let root, let registrar = ObservationRegistrarLookup.registrar(of: root) else { return }
        registrar.didSet(root, keyPath: \Root.self)
    }
}

/// What Observation's `@Sendable` callbacks call on a ``FrameworkObservation`` (type-erased, so that the
/// callbacks capture no generic metatype).
protocol FrameworkObservationCallbacks: AnyObject, Sendable {
    func changed(_ tracking: ObservationTracking, generation: Int)
    func close()
    func end()
    var isClosed: Bool { get }
}

/// Runs a closure when deinitialized.
final class LifetimeToken: Sendable {
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
