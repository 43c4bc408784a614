import TetherEngine

/// A class whose `@Observed` properties can be observed through key paths — KVO for Linux.
///
/// Adopting it costs nothing: it has no requirements. It gives the class ``observe(_:)`` (RACObserve),
/// ``valuesAndChanges(_:options:)`` and ``deallocated``, and (through ``BindingTarget``) the
/// `Binding` module's `bind(\.property, to:)`.
///
/// ```swift
/// final class Account: KeyPathObservable {
///     @Observed var name = ""
///     @Observed var password = ""
/// }
/// final class LoginViewModel: KeyPathObservable {
///     @Observed var account = Account()
/// }
/// let vm = LoginViewModel()
/// let valid = Signal.combineLatest(vm.observe(\.account.name), vm.observe(\.account.password))
///     .map { !$0.isEmpty && !$1.isEmpty }
/// ```
///
/// Threading: observe, set and read the properties on the object's isolation, as for any stored
/// property (subscribing reads the key path, and may allocate the properties' observer storage).
/// Values are delivered synchronously on the thread that sets the property. Subscriptions may be
/// disposed from any thread.
public protocol KeyPathObservable: BindingTarget {}

extension KeyPathObservable {
    /// The value at `keyPath` now, then after every set of an `@Observed` property it depends on;
    /// completes when this object deinitializes (RAC's `RACObserve(self, keyPath)`).
    ///
    /// Every set is sent, even of an equal value (add `distinctUntilChanged()` if you want fewer).
    /// The key path is re-evaluated whenever an `@Observed` property read during its last evaluation is
    /// set, so chains follow their middle object when it is replaced (`\.account.name`), optional links
    /// work (`\.account?.name`), and computed properties and conditionals are re-tracked on each
    /// evaluation. Reads of anything other than `@Observed` properties are not tracked.
    ///
    /// The observation never keeps the object alive. If the key path reads no `@Observed` property
    /// (a plain `var`), the signal sends the current value, completes, and an ``ObservationWarning``
    /// (`.keyPathObservesNothing`) is reported.
    ///
    /// ```swift
    /// final class Account: KeyPathObservable { @Observed var name = "" }
    /// final class LoginViewModel: KeyPathObservable { @Observed var account = Account() }
    /// let vm = LoginViewModel()
    /// vm.observe(\.account.name).subscribe(next: { print("name:", $0) })   // name: (empty)
    /// vm.account.name = "ann"                                               // name: ann
    /// vm.account = Account()                                                // name: (empty)
    /// ```
    /// Marble (sets of `name`): `a--b--b-` → `a--b--b-` (the first value on subscription).
    @inlinable
    public func observe<T>(_ keyPath: KeyPath<Self, T>) -> Signal<T, Never> {
        Signal.weaklyRooted(at: self) { root, sink, lifetime in
            let (value, reads) = ReadTracker.track { root[keyPath: keyPath] }
            // Fast path: exactly one `@Observed` property of this object, observed directly.
            if reads.count == 1, reads[0].owner == ObjectIdentifier(root), reads[0].keyPath == keyPath,
                let channel = reads[0].channel as? PropertyObserverList<T>
            {
                // The entry ends the subscription itself when the object deinitializes (its callbacks hold
                // the sink and the lifetime): no closure context is made for that.
                let entry = PropertyObserverEntry<T>(channel: channel, sink: sink, lifetime: lifetime)
                // A closure whose only capture is the entry uses the entry as its context: held inline as
                // the lifetime's first child, where `add(entry)` would allocate the children's array.
                lifetime.add { entry.dispose() }
                channel.subscribe(entry, initial: value)
                return
            }
            KeyPathObservation.start(
                root: root, keyPath: keyPath, wantsPrior: false, first: value, reads: reads,
                lifetime: lifetime
            ) { update in
                switch update {
                case .initial(let value), .changed(_, let value):
                    sink.send(.next(value))
                case .prior:
                    break
                case .ended:
                    sink.send(.completed)
                    lifetime.dispose()
                }
            }
        }
    }

    /// The changes of `keyPath`, described as KVO describes them (RAC's
    /// `rac_valuesAndChangesForKeyPath:options:observer:`); completes when this object deinitializes.
    ///
    /// - `.initial`: a first change on subscription (`newValue` = the current value if `.new`).
    /// - `.old` / `.new`: fill `oldValue` / `newValue`.
    /// - `.prior`: also a change *before* each set, with `isPrior == true` and `oldValue` (if `.old`).
    ///
    /// Key paths are tracked as by ``observe(_:)``; `oldValue` is the value last sent for the path.
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = ""; @Observed var count = 0 }
    /// let model = Model()
    /// model.valuesAndChanges(\.count, options: [.initial, .old, .new, .prior])
    ///     .subscribe(next: { print($0) })     // Change(new: 0)
    /// model.count = 1                          // Change(prior, old: 0), Change(old: 0, new: 1)
    /// ```
    /// Marble (sets of 1 then 2, options `[.old, .new]`): `-1--2-` → `-(0→1)--(1→2)-`
    @inlinable
    public func valuesAndChanges<T>(
        _ keyPath: KeyPath<Self, T>, options: ObservationOptions = [.initial, .new]
    ) -> Signal<Change<T>, Never> {
        let wantsOld = options.contains(.old)
        let wantsNew = options.contains(.new)
        let wantsInitial = options.contains(.initial)
        let wantsPrior = options.contains(.prior)
        return Signal.weaklyRooted(at: self) { root, sink, lifetime in
            let (value, reads) = ReadTracker.track { root[keyPath: keyPath] }
            KeyPathObservation.start(
                root: root, keyPath: keyPath, wantsPrior: wantsPrior, first: value, reads: reads,
                lifetime: lifetime
            ) { update in
                switch update {
                case .initial(let value):
                    guard wantsInitial else { return }
                    sink.send(.next(Change(oldValue: nil, newValue: wantsNew ? value : nil, isPrior: false)))
                case .prior(let old):
                    sink.send(.next(Change(oldValue: wantsOld ? old : nil, newValue: nil, isPrior: true)))
                case .changed(let old, let new):
                    sink.send(
                        .next(Change(oldValue: wantsOld ? old : nil, newValue: wantsNew ? new : nil, isPrior: false)))
                case .ended:
                    sink.send(.completed)
                    lifetime.dispose()
                }
            }
        }
    }

    /// Completes when this object deinitializes; sends no value (RAC's `rac_willDeallocSignal`).
    ///
    /// Tether sees the deinitialization through storage the object owns: the observer storage of one of
    /// its `@Observed` properties (any one), or a stored ``DeallocationToken``
    /// (`let deallocationToken = DeallocationToken()`, for a class with no `@Observed` property). A class
    /// with neither cannot be watched: its `deallocated` never completes, and an
    /// ``ObservationWarning`` (`.noLifetimeStorage`) is reported. Subscribing after the object is gone
    /// completes at once. The completion is sent on the thread that releases the object, during its
    /// deinitialization. Subscribe on the object's isolation.
    ///
    /// ```swift
    /// final class LoginViewModel: KeyPathObservable { @Observed var username = "" }
    /// var vm: LoginViewModel? = LoginViewModel()
    /// vm!.deallocated.subscribe(completed: { print("gone") })
    /// vm = nil   // prints gone
    /// ```
    /// Marble: `----|` (completes at deinit)
    public var deallocated: Signal<Void, Never> {
        Signal.weaklyRooted(at: self) { root, sink, lifetime in
            guard let channel = ObjectLifetime.channel(of: root) else {
                ObservationWarning.noLifetimeStorage(type(of: root))
                return
            }
            lifetime.add(
                channel.addLifetimeObserver {
                    sink.send(.completed)
                    lifetime.dispose()
                })
        }
    }
}
