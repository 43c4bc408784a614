extension BindingTarget {
    /// Sets `keyPath` on this object to every value `source` sends (RAC's `RAC(target, keyPath) = signal`).
    ///
    /// The binding holds the object weakly — it never keeps it alive — and ends when `source`
    /// completes, when the returned disposable is disposed, or when the object goes away: at once for
    /// ``KeyPathObservable`` objects (through their `deallocated` signal), and for other classes at the
    /// latest when the next value arrives. Only signals that cannot fail bind: handle errors first
    /// (`catch`, `retry`, …) — a failing signal does not compile here.
    ///
    /// The property is set on the thread where `source` sends; use ``bind(_:to:on:isolation:)`` to set it on a
    /// scheduler (a UI thread).
    ///
    /// ```swift
    /// enum Colour { case white, yellow }
    /// final class LoginView: BindingTarget {
    ///     var usernameColour = Colour.white
    ///     var isLoginEnabled = false
    /// }
    /// let view = LoginView()
    /// let usernameValid = Subject<Bool, Never>()
    /// let login = Command { print("signing in") }
    /// view.bind(\.usernameColour, to: usernameValid.map { $0 ? .white : .yellow })
    /// view.bind(\.isLoginEnabled, to: login.enabled)
    /// ```
    /// Marble: source `-a--b-|`, property after each frame `-a--b--` (the binding ends at `|`).
    @discardableResult
    public func bind<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Value, Never>,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        startBinding(self, source.signal, keyPath, isolation: CallerIsolation(isolation)) { target, value in
            target[keyPath: keyPath] = value
        }
    }

    /// Sets `keyPath` to every value of `source` on `scheduler` — for objects that must only be touched
    /// on one thread or queue (a UI's). Values keep their order; otherwise as ``bind(_:to:isolation:)-(ReferenceWritableKeyPath<Self,Value>,_,_)``.
    ///
    /// ```swift
    /// final class ResultsView: BindingTarget { var rows: [String] = [] }
    /// let resultsView = ResultsView()
    /// let results = Subject<[String], Never>()
    /// resultsView.bind(\.rows, to: results, on: QueueScheduler.main)
    /// ```
    @discardableResult
    public func bind<Value: Sendable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Value, Never>,
        on scheduler: some Scheduler,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        startBinding(self, source.deliver(on: scheduler), keyPath, isolation: CallerIsolation(isolation)) {
            target, value in
            target[keyPath: keyPath] = value
        }
    }

    /// Binds an optional property to a signal of non-optional values.
    ///
    /// ```swift
    /// final class View: BindingTarget { var selectedName: String? }
    /// let view = View()
    /// let names = Subject<[String], Never>()
    /// view.bind(\.selectedName, to: names.map { $0.first ?? "" })
    /// ```
    @discardableResult
    public func bind<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value?>,
        to source: some SignalConvertible<Value, Never>,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        startBinding(self, source.signal, keyPath, isolation: CallerIsolation(isolation)) { target, value in
            target[keyPath: keyPath] = value
        }
    }

    /// Binds a property to a signal of optionals, writing `nilValue` whenever the signal sends `nil`
    /// (RAC's `RAC(target, keyPath, nilValue) = signal`).
    ///
    /// ```swift
    /// final class View: BindingTarget { var resultCount = 0 }
    /// let view = View()
    /// let results = Subject<[String]?, Never>()
    /// view.bind(\.resultCount, to: results.map { $0?.count }, nilValue: 0)
    /// ```
    @discardableResult
    public func bind<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Value?, Never>,
        nilValue: Value,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        startBinding(self, source.signal, keyPath, isolation: CallerIsolation(isolation)) { target, value in
            target[keyPath: keyPath] = value ?? nilValue
        }
    }

    /// The slot `keyPath` of this object, to bind with `<~`: `object[\.property] <~ signal`.
    ///
    /// ```swift
    /// final class LoginView: BindingTarget { var isLoginEnabled = false; var spinnerVisible = false }
    /// let view = LoginView()
    /// let login = Command { print("signing in") }
    /// view[\.isLoginEnabled] <~ login.enabled
    /// view[\.spinnerVisible] <~ login.executing
    /// ```
    public subscript<Value>(
        keyPath: ReferenceWritableKeyPath<Self, Value>, isolation isolation: (any Actor)? = #isolation
    ) -> BindingSlot<Self, Value> {
        BindingSlot(target: self, keyPath: keyPath, isolation: isolation)
    }
}

/// One property of one object, as the left side of `<~` (made by the `target[\.property]` subscript).
///
/// It holds the object weakly, so keeping a slot around never keeps the object alive.
///
/// ```swift
/// final class Button: BindingTarget { var isEnabled = true }
/// let button = Button()
/// let login = Command { print("signing in") }
/// let enabledSlot = button[\.isEnabled]
/// enabledSlot <~ login.enabled
/// ```
public struct BindingSlot<Target: BindingTarget, Value> {
    /// The object, or `nil` once it is gone.
    public private(set) weak var target: Target?
    /// The property.
    public let keyPath: ReferenceWritableKeyPath<Target, Value>
    /// The actor whose code made the slot, where `<~` sets the property (`nil`: the sending thread).
    public let isolation: (any Actor)?

    /// Creates a slot for `keyPath` of `target`.
    ///
    /// ```swift
    /// final class Button: BindingTarget { var isEnabled = true }
    /// let button = Button()
    /// let slot = BindingSlot(target: button, keyPath: \.isEnabled)
    /// ```
    public init(
        target: Target, keyPath: ReferenceWritableKeyPath<Target, Value>, isolation: (any Actor)? = #isolation
    ) {
        self.target = target
        self.keyPath = keyPath
        self.isolation = isolation
    }

    /// Binds the slot's property to `source`: the same as `target.bind(keyPath, to: source)`.
    /// Binding a slot whose object is gone does nothing and returns a disposed disposable.
    ///
    /// ```swift
    /// final class View: BindingTarget { var title = "" }
    /// let view = View()
    /// view[\.title] <~ Signal(value: "Welcome")
    /// ```
    @discardableResult
    public static func <~ (slot: BindingSlot, source: some SignalConvertible<Value, Never>) -> any Disposable {
        guard let target = slot.target else { return disposedDisposable() }
        let keyPath = slot.keyPath
        return startBinding(target, source.signal, keyPath, isolation: CallerIsolation(slot.isolation)) {
            target, value in target[keyPath: keyPath] = value
        }
    }

    /// Binds an optional property to a signal of non-optional values.
    ///
    /// ```swift
    /// final class View: BindingTarget { var selectedName: String? }
    /// let view = View()
    /// let firstName = Subject<String, Never>()
    /// view[\.selectedName] <~ firstName
    /// ```
    @discardableResult
    public static func <~ <Wrapped>(slot: BindingSlot, source: some SignalConvertible<Wrapped, Never>) -> any Disposable
    where Value == Wrapped? {
        guard let target = slot.target else { return disposedDisposable() }
        let keyPath = slot.keyPath
        return startBinding(target, source.signal, keyPath, isolation: CallerIsolation(slot.isolation)) {
            target, value in target[keyPath: keyPath] = value
        }
    }
}

/// Starts a binding that applies every value to `target` while it exists.
///
/// The returned disposable is the binding: it is disposed when the binding ends for any reason, so
/// `isDisposed` tells whether it still runs.
///
/// `keyPath` names the binding in ``TetherDebug``'s graph (`bind(\LoginForm.isLoginEnabled)`) and in the
/// main-queue check's findings. `ends`: when the binding ends with its target, if not the target's own
/// deallocation signal.
func startBinding<Target: AnyObject, Value>(
    _ target: Target,
    _ source: Signal<Value, Never>,
    _ keyPath: AnyKeyPath?,
    ends: Signal<Void, Never>? = nil,
    isolation: CallerIsolation?,
    apply: @escaping (Target, Value) -> Void
) -> any Disposable {
    let label = { keyPath.map { "bind(\($0))" } ?? "bind(to:) \(Target.self)" }
    var apply = apply
    if let check = TetherDebug.mainQueueCheck(for: target, binding: label()) {
        apply = { [apply] target, value in
            check()
            apply(target, value)
        }
    }
    let binding = CompositeDisposable()
    weak let weakTarget = target
    if let ends = ends ?? deallocationSignal(of: target) {
        binding.add(
            TetherDebug.withSubscriberLabel(label() + " (until its target goes)") {
                ends.subscribe(completed: { binding.dispose() })
            })
    }
    if binding.isDisposed { return binding }
    binding.add(
        TetherDebug.withSubscriberLabel(label()) {
            source.delivered(on: isolation).subscribe(
                next: { value in
                    guard let target = weakTarget else {
                        binding.dispose()
                        return
                    }
                    apply(target, value)
                },
                completed: { binding.dispose() })
        })
    return binding
}

/// The signal that completes when `target` is deallocated, for targets that have one: a
/// ``KeyPathObservable`` object, or an `@Observable` one (Swift's Observation framework).
func deallocationSignal(of target: AnyObject) -> Signal<Void, Never>? {
    if let observable = target as? any KeyPathObservable { return observable.deallocated }
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        return observableLifetimeSignal(of: target)
    }
    return nil
}

func disposedDisposable() -> any Disposable {
    let disposable = AnyDisposable()
    disposable.dispose()
    return disposable
}

extension MutableProperty {
    /// Sets this property to every value `source` sends (ReactiveSwift's `property <~ signal`).
    ///
    /// The binding holds the property weakly and ends when `source` completes, when the returned
    /// disposable is disposed, or — at the latest on the next value — after the property is gone.
    ///
    /// ```swift
    /// let query = MutableProperty("")
    /// let searchField = Subject<String, Never>()   // e.g. the lines a text field sends
    /// query.bind(to: searchField)
    /// ```
    @discardableResult
    public func bind(to source: some SignalConvertible<Value, Never>) -> any Disposable {
        // A `MutableProperty` is safe to set from any thread: no hop.
        startBinding(self, source.signal, nil, isolation: nil) { property, value in property.value = value }
    }

    /// Binds the property to `source`: `property <~ source` is `property.bind(to: source)`.
    ///
    /// ```swift
    /// let query = MutableProperty("")
    /// let searchField = Subject<String, Never>()
    /// query <~ searchField
    /// ```
    @discardableResult
    public static func <~ (property: MutableProperty, source: some SignalConvertible<Value, Never>) -> any Disposable {
        property.bind(to: source)
    }
}
