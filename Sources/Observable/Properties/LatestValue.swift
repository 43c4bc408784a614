import Observation
import TetherEngine

/// The latest value a signal sent, as an Observation-tracked (`@Observable`) object: a `Signal` that an
/// `@Observable` model can hold, and that SwiftUI-style code reading `value` re-reads when it changes.
///
/// `value` starts at `initial` and follows every value the source sends. Reading `value` or `isActive`
/// inside `withObservationTracking` (or an `Observations` sequence, or a SwiftUI view) tracks it.
/// Cancellation is disposal, both ways: ``cancel()`` — or releasing the object — disposes the
/// subscription to the source; when the source completes (or its subscription is disposed
/// elsewhere), `isActive` becomes `false` and `value` keeps the last value.
///
/// Isolation: made from actor-isolated code (a `@MainActor` model), `value` is set on that actor — at
/// once for a value sent there, otherwise queued to it in order (<doc:Isolation>) — so a main-actor view
/// reads it without racing the sender. Made from nonisolated code, `value` is set on the thread where the source
/// sends. Reading is thread-safe either way.
///
/// <!-- example: top-level -->
/// ```swift
/// import Observation
///
/// @MainActor @Observation.Observable final class Dashboard {   // `Observable` alone names Tether's module
///     let temperature: LatestValue<Double>
///     init(readings: Signal<Double, Never>) {
///         temperature = LatestValue(readings, initial: 0)
///     }
/// }
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class LatestValue<Value: Sendable>: Observation.Observable, Sendable {
    // Named as the `@Observable` macro names it, so that Tether's `observe` and `deallocated` find it.
    private let _$observationRegistrar = ObservationRegistrar()
    /// The latest value, and whether the source can still send.
    private let stored: LockedState<(value: Value, isActive: Bool)>
    private let subscription = SerialDisposable()

    /// Follows `source`, starting at `initial`; see the type's notes for the isolation.
    ///
    /// ```swift
    /// let readings = Subject<Double, Never>()
    /// let temperature = LatestValue(readings, initial: 0)
    /// readings.send(21.5)   // temperature.value == 21.5
    /// ```
    public init(
        _ source: some SignalConvertible<Value, Never>, initial: Value,
        isolation: isolated (any Actor)? = #isolation
    ) {
        stored = LockedState((initial, true))
        // On the caller's actor, if any: at once when sent there, else queued to it in order.
        let values = source.signal.delivered(on: CallerIsolation(isolation))
        weak let weakSelf = self
        subscription.inner = values.subscribe(
            next: { value in weakSelf?.store(value) },
            completed: { weakSelf?.finish() })
    }

    deinit {
        subscription.dispose()
    }

    /// The latest value the source sent (`initial` before the first). Observation-tracked.
    ///
    /// ```swift
    /// let temperature = LatestValue(Signal(value: 20.0), initial: 0)
    /// print(temperature.value)   // 20.0
    /// ```
    public var value: Value {
        _$observationRegistrar.access(self, keyPath: \.value)
        return stored.withLock { $0.value }
    }

    /// Whether the source can still send: `false` once it completed or this was cancelled.
    /// Observation-tracked.
    ///
    /// ```swift
    /// let temperature = LatestValue(Signal(value: 20.0), initial: 0)
    /// print(temperature.isActive)   // false — that signal completed after its value
    /// ```
    public var isActive: Bool {
        _$observationRegistrar.access(self, keyPath: \.isActive)
        return stored.withLock { $0.isActive }
    }

    /// Disposes the subscription to the source; `value` keeps its last value and `isActive` becomes
    /// `false`.
    ///
    /// ```swift
    /// let readings = Subject<Double, Never>()
    /// let temperature = LatestValue(readings, initial: 0)
    /// temperature.cancel()
    /// readings.send(30)   // temperature.value is still 0
    /// ```
    public func cancel() {
        subscription.dispose()
        finish()
    }

    private func store(_ value: Value) {
        _$observationRegistrar.withMutation(of: self, keyPath: \.value) {
            stored.withLock { $0.value = value }
        }
    }

    private func finish() {
        let wasActive = stored.withLock { $0.isActive }
        guard wasActive else { return }
        _$observationRegistrar.withMutation(of: self, keyPath: \.isActive) {
            stored.withLock { $0.isActive = false }
        }
    }
}
