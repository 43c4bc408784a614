import Observation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observation.Observable where Self: AnyObject {
    /// Sets `keyPath` on this `@Observable` object to every value `source` sends — `BindingTarget`'s
    /// `bind(_:to:)` for classes using Swift's Observation framework.
    ///
    /// The binding holds the object weakly — it never keeps it alive — and ends when `source`
    /// completes, when the returned disposable is disposed, or when the object deinitializes (at once,
    /// seen through the registrar the `@Observable` macro stores in it).
    ///
    /// Isolation: called from actor-isolated code (a `@MainActor` model or view, an actor), the binding
    /// sets the property on that actor — each value hops there through an `ActorScheduler` (in
    /// order, after the send returns), so a `@MainActor` model bound to a signal that sends on a
    /// background thread is only ever set on the main actor. Called from nonisolated code, it sets the
    /// property on the thread where `source` sends; Swift does not let nonisolated code form a key path
    /// to a main-actor-isolated property, so that case does not compile for a `@MainActor` model.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import Observation
    ///
    /// @MainActor @Observation.Observable final class SearchModel {   // `Observable` alone names Tether's module
    ///     var results: [String] = []
    /// }
    ///
    /// @MainActor func connect(_ model: SearchModel, to found: Signal<[String], Never>) {
    ///     model.bind(\.results, to: found)   // each value is set on the main actor
    /// }
    /// ```
    /// Marble: source `-a--b-|`, property after each frame `-a--b--` (the binding ends at `|`).
    @discardableResult
    public func bind<Value: Sendable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Value, Never>,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        return startBinding(
            self, source.signal, keyPath, ends: deallocated, isolation: CallerIsolation(isolation)
        ) { target, value in
            target[keyPath: keyPath] = value
        }
    }

    /// A two-way terminal for the `@Observable` property at `keyPath`: it sends the property's value
    /// now and after every change (`observe(_:)`), and sets the property to
    /// every value sent into it. Join it to another property's terminal with `<~>` (or
    /// ``ChannelTerminal/bind(to:)``) to keep the two in sync: an `@Observed` property's
    /// (`KeyPathObservable.channel(_:)`) or a `MutableProperty`'s (`MutableProperty.channel()`).
    ///
    /// The terminal holds the object weakly. The property is set as ``bind(_:to:isolation:)`` sets it:
    /// on the calling actor when called from actor-isolated code, else on the sending thread. The
    /// terminal's values arrive when `observe` delivers them (synchronously after the set; in a
    /// library built with `-D TETHER_OBSERVATION_PUBLIC_API`, on the main queue).
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import Observation
    ///
    /// @Observation.Observable final class Settings {   // `Observable` alone names Tether's module
    ///     var volume = 5
    /// }
    ///
    /// func link(_ settings: Settings, _ volume: MutableProperty<Int>) {
    ///     settings.channel(\.volume) <~> volume.channel()   // the leader's value wins at first
    ///     volume.value = 7                                  // settings.volume == 7
    /// }
    /// ```
    public func channel<Value: Sendable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        isolation: isolated (any Actor)? = #isolation
    ) -> ChannelTerminal<Value, Never> {
        let incoming = Subject<Value, Never>()
        let binding = startBinding(
            self, incoming.signal, keyPath, ends: deallocated, isolation: CallerIsolation(isolation)
        ) { target, value in
            target[keyPath: keyPath] = value
        }
        let terminal = ChannelTerminal(values: observe(keyPath), set: { value in incoming.send(value) })
        terminal.core.endWithChannel(binding)
        return terminal
    }
}
