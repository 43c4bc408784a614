import Observation
import TetherEngine

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observation.Observable where Self: AnyObject {
    /// Completes when this `@Observable` object deinitializes; sends no value — ``KeyPathObservable``'s
    /// `deallocated` for classes using Swift's Observation framework.
    ///
    /// Tether sees the deinitialization through the registrar the `@Observable` macro stores in the
    /// object. A class that conforms to `Observable` by hand has none Tether can find: its
    /// `deallocated` never completes, and an ``ObservationWarning`` (`.noLifetimeStorage`) is reported.
    /// Subscribing after the object is gone completes at once. The completion is sent on the thread
    /// that releases the object, during its deinitialization. Disposing the subscription removes its
    /// registration from the object at once. Uses Observation's public API only.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import Observation
    ///
    /// @Observation.Observable final class Document {   // `Observable` alone names Tether's module
    ///     var text = ""
    /// }
    ///
    /// func watch() {
    ///     var document: Document? = Document()
    ///     document!.deallocated.subscribe(completed: { print("closed") })
    ///     document = nil   // closed
    /// }
    /// ```
    /// Marble: `----|` (completes at deinit)
    @_disfavoredOverload
    public var deallocated: Signal<Void, Never> {
        Signal.weaklyRooted(at: self) { root, sink, lifetime in
            guard let ends = observableLifetimeSignal(of: root) else {
                ObservationWarning.noLifetimeStorage(type(of: root))
                return
            }
            ends.start(sink, in: lifetime)
        }
    }
}

/// The signal that completes when `object` (an `@Observable` object) deinitializes, or `nil` when it
/// has no registrar Tether can find. For modules that bind to objects of any class.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
package func observableLifetimeSignal(of object: AnyObject) -> Signal<Void, Never>? {
    guard let observable = object as? any Observation.Observable,
        let registrar = ObservationRegistrarLookup.registrar(of: object)
    else { return nil }
    return lifetimeSignal(of: observable, registrar: registrar)
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private func lifetimeSignal<Root: Observation.Observable>(
    of root: Root, registrar: ObservationRegistrar
) -> Signal<Void, Never> {
    let object = root as AnyObject
    return Signal(unsafeStart: { [weak object] sink, lifetime in
        guard let object, let root = object as? Root else {
            sink.send(.completed)
            lifetime.dispose()
            return
        }
        ObservableLifetimeSubscription(root: root, sink: sink, lifetime: lifetime).start(registrar: registrar)
    })
}

/// One subscription to an `@Observable` object's `deallocated`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class ObservableLifetimeSubscription<Root: Observation.Observable>:
    DeinitWatchCallback, @unchecked Sendable
{
    // Safety: immutable after `init`; `sink` and `lifetime` are thread-safe and the sink is sent one
    // terminal event (`lifetime.dispose()` makes later sends no-ops).
    weak var object: AnyObject?
    let key: KeyPath<Root, Void>
    let sink: Sink<Void, Never>
    let lifetime: CompositeDisposable

    init(root: Root, sink: Sink<Void, Never>, lifetime: CompositeDisposable) {
        self.object = root as AnyObject
        self.key = ObservationSubscriptionID.make(for: Root.self)
        self.sink = sink
        self.lifetime = lifetime
    }

    func start(registrar: ObservationRegistrar) {
        guard let root = object as? Root else { return end() }
        weak let ending: (any DeinitWatchCallback)? = self
        let erased: any DeinitWatchCallback = self
        lifetime.add(AnyDisposable { erased.cancel() })
        ObservableDeinitWatch.watch(root, registrar: registrar, key: key) { ending?.end() }
    }

    func end() {
        sink.send(.completed)
        lifetime.dispose()
    }

    /// Fires the watch, so that it removes itself from the object's registrar now.
    func cancel() {
        guard let object, let root = object as? Root,
            let registrar = ObservationRegistrarLookup.registrar(of: object)
        else { return }
        registrar.willSet(root, keyPath: key)
    }
}
