import Observable
import TetherEngine

/// The selector-less target-action registry: closures keyed by ``ControlEvents``, fired by
/// ``sendActions(for:from:)``, observable with ``signal(for:)`` (RAC's `rac_signalForControlEvents:`).
///
/// A control (any class) owns one registry; most adopt ``ActionSource`` so that `addAction(for:_:)`,
/// `sendActions(for:)` and `signal(for:)` hang on the control itself. The registry never stores the
/// sender: the control passes itself when it sends, so actions and subscriptions never keep it alive.
/// When the registry is deinitialized (with its control), the subscriptions of ``signal(for:)`` complete.
///
/// Reentrancy by design (like ReactiveCocoa's `CocoaTarget`): a send that arrives while actions are being
/// sent — from inside an action, or from another thread — is queued and delivered after the current one,
/// in order, so actions never nest and never run concurrently. Such a send may return before its actions
/// have run.
///
/// ```swift
/// final class Button: ActionSource {
///     let actions = ActionRegistry<Button>()
///     var title = "OK"
///     func click() { sendActions(for: [.touchUpInside, .primaryAction]) }
/// }
///
/// let button = Button()
/// let tap = button.addAction(for: .primaryAction) { sender in print("tapped", sender.title) }
/// button.click()      // prints tapped OK
/// tap.dispose()
/// button.click()      // prints nothing
/// ```
public final class ActionRegistry<Sender: AnyObject> {
    /// One registered action.
    final class Entry {
        let events: ControlEvents
        let action: (Sender, ControlEvents) -> Void
        /// Runs when the registry goes away (completes a `signal(for:)` subscription).
        let onEnd: (() -> Void)?
        /// The actor hop of an action registered from actor-isolated code: the removal cancels it, so
        /// nothing queued for the actor runs after it.
        let hop: ActorHop?
        /// Set (once) when the action is removed: a send that reads it set skips the action.
        let removed = AtomicFlag()

        init(
            events: ControlEvents, action: @escaping (Sender, ControlEvents) -> Void, onEnd: (() -> Void)?,
            hop: ActorHop? = nil
        ) {
            self.events = events
            self.action = action
            self.onEnd = onEnd
            self.hop = hop
        }
    }

    private let lock = Lock()
    // Guarded by `lock`.
    private var entries: [Entry] = []
    /// Serializes sends: one runs at a time; others (reentrant or from other threads) queue behind it.
    private let sends = SerialGate<(sender: Sender, events: ControlEvents)>()
    private let enabledSubject = BehaviorSubject<Bool, Never>(value: true)

    /// Creates an empty registry, enabled.
    ///
    /// ```swift
    /// final class Slider: ActionSource { let actions = ActionRegistry<Slider>(); var value = 0.0 }
    /// let actions = ActionRegistry<Slider>()
    /// ```
    public init() {}

    deinit {
        let ending = lock.withLock { () -> [Entry] in
            let all = entries
            entries = []
            return all
        }
        for entry in ending { entry.onEnd?() }
        enabledSubject.sendCompleted()
    }

    /// Whether sends deliver anything. A disabled control does not fire: while `false`,
    /// ``sendActions(for:from:)`` drops what it is given. `Command` bindings drive this property.
    ///
    /// A set takes effect at once — also from inside an observer of ``enabled``, or while another
    /// thread delivers a change (its observers hear of it after that delivery).
    ///
    /// ```swift
    /// final class Button: ActionSource {
    ///     let actions = ActionRegistry<Button>()
    ///     func click() { sendActions(for: .primaryAction) }
    /// }
    /// let button = Button()
    /// button.actions.isEnabled = false
    /// button.click()   // no action runs
    /// ```
    public var isEnabled: Bool {
        get {
            EnabledReadProbe.noteRead(of: self)
            return enabledSubject.value
        }
        set { enabledSubject.send(newValue) }
    }

    /// ``isEnabled`` as a signal: the current value, then each change (repeated sets of the same value
    /// are not repeated). Completes when the registry is deinitialized.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.actions.enabled.subscribe(next: { print("enabled:", $0) })   // enabled: true
    /// button.actions.isEnabled = false                                     // enabled: false
    /// ```
    public var enabled: Signal<Bool, Never> {
        let source = enabledSubject.signal
        return Signal.uncheckedCreate({ observer in
            // The subject delivers serially, so `last` needs no lock.
            var last: Bool?
            return source.subscribe(
                next: { value in
                    if value == last { return }
                    last = value
                    observer.send(value)
                },
                completed: { observer.sendCompleted() })
        })
    }

    /// Registers `action` for any of `events`; disposing the result removes it.
    ///
    /// The action receives the sender and the events that matched. A removal from another thread while
    /// that action is running does not wait for it (use ``signal(for:)`` for the full disposal guarantee).
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let registry = TextField().actions
    /// let handle = registry.addAction(for: .allEditingEvents) { field, events in
    ///     print(field.text, events)
    /// }
    /// handle.dispose()
    /// ```
    ///
    /// Registered from actor-isolated code (a `@MainActor` view model), the action runs on that actor: at
    /// once when the events are sent there, else queued to it in order (see "Isolation" in `Observable`).
    @discardableResult
    public func addAction(
        for events: ControlEvents, isolation: isolated (any Actor)? = #isolation,
        _ action: @escaping (Sender, ControlEvents) -> Void
    ) -> any Disposable {
        register(Self.entry(for: events, running: action, on: CallerIsolation(isolation)))
    }

    /// The entry of `action`, run on `isolation`'s actor in the order of the sends when there is one:
    /// through an ``ActorHop`` that the removal cancels (issue 42, bug 3).
    private static func entry(
        for events: ControlEvents, running action: @escaping (Sender, ControlEvents) -> Void,
        on isolation: CallerIsolation?
    ) -> Entry {
        guard let isolation else { return Entry(events: events, action: action, onEnd: nil) }
        let hop = ActorHop(isolation)
        return Entry(
            events: events, action: { sender, events in hop.run { action(sender, events) } }, onEnd: nil, hop: hop)
    }

    /// Registers `action` for any of `events`, when the events that matched do not matter.
    ///
    /// ```swift
    /// final class Slider: ActionSource { let actions = ActionRegistry<Slider>(); var value = 0.0 }
    /// let registry = Slider().actions
    /// registry.addAction(for: .valueChanged) { slider in print(slider.value) }
    /// ```
    @discardableResult
    public func addAction(
        for events: ControlEvents, isolation: isolated (any Actor)? = #isolation,
        _ action: @escaping (Sender) -> Void
    ) -> any Disposable {
        register(Self.entry(for: events, running: { sender, _ in action(sender) }, on: CallerIsolation(isolation)))
    }

    /// Runs every action registered for any of `events`, in registration order, with `sender`
    /// (queued behind a send in progress; dropped while disabled).
    ///
    /// ```swift
    /// final class Slider: ActionSource {
    ///     let actions = ActionRegistry<Slider>()
    ///     var value = 0.0 { didSet { actions.sendActions(for: .valueChanged, from: self) } }
    /// }
    /// ```
    public func sendActions(for events: ControlEvents, from sender: Sender) {
        guard isEnabled else { return }
        sends.submitEvent((sender, events)) { send in self.deliver(send.sender, send.events) }
    }

    private func deliver(_ sender: Sender, _ events: ControlEvents) {
        let targets = lock.withLock { entries.filter { !$0.events.isDisjoint(with: events) } }
        for entry in targets where !entry.removed.isSet {
            entry.action(sender, entry.events.intersection(events))
        }
    }

    /// The sender each time any of `events` is sent (RAC's `rac_signalForControlEvents:`). Completes when
    /// the registry is deinitialized; the signal holds the registry weakly.
    ///
    /// ```swift
    /// final class Slider: ActionSource { let actions = ActionRegistry<Slider>(); var value = 0.0 }
    /// let slider = Slider()
    /// slider.signal(for: .valueChanged).subscribe(next: { print($0.value) })   // (read on the control's thread)
    /// ```
    public func signal(for events: ControlEvents) -> Signal<Sender, Never> {
        weak let registry = self
        return Signal.uncheckedCreate({ observer in
            guard let registry else {
                observer.sendCompleted()
                return nil
            }
            return registry.register(
                Entry(
                    events: events, action: { sender, _ in observer.send(sender) },
                    onEnd: { observer.sendCompleted() }))
        })
    }

    /// The number of registered actions and subscriptions.
    ///
    /// ```swift
    /// let registry = ActionRegistry<AnyObject>()
    /// print(registry.count)   // 0
    /// ```
    public var count: Int { lock.withLock { entries.count } }

    /// The union of the events that have an action or a subscription.
    ///
    /// ```swift
    /// let registry = ActionRegistry<AnyObject>()
    /// print(registry.allControlEvents.contains(.valueChanged))   // false
    /// ```
    public var allControlEvents: ControlEvents {
        lock.withLock { entries.reduce(into: ControlEvents()) { $0.formUnion($1.events) } }
    }

    private func register(_ entry: Entry) -> any Disposable {
        lock.withLock { entries.append(entry) }
        return ActionRemoval(registry: self, entry: entry)
    }

    fileprivate func remove(_ entry: Entry) {
        lock.withLock {
            if let index = entries.firstIndex(where: { $0 === entry }) { entries.remove(at: index) }
        }
    }
}

// Safety: all mutable state is behind `lock`; senders cross threads (a queued send is delivered by the
// thread already sending) only when they are Sendable.
extension ActionRegistry: @unchecked Sendable where Sender: Sendable {}

/// Removes one entry from its registry; holds neither strongly.
private final class ActionRemoval<Sender: AnyObject>: Disposable, @unchecked Sendable {
    // Safety: the weak references are never reassigned (`Entry` and, for a non-`Sendable` sender, the
    // registry are not `Sendable`, but only `entry`'s one-shot flag, its hop and the registry's locked
    // removal are touched from here); `disposed` is a one-shot flag.
    weak let registry: ActionRegistry<Sender>?
    weak let entry: ActionRegistry<Sender>.Entry?
    private let disposed = AtomicFlag()

    init(registry: ActionRegistry<Sender>, entry: ActionRegistry<Sender>.Entry) {
        self.registry = registry
        self.entry = entry
    }

    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        guard disposed.raise(), let entry else { return }
        entry.removed.raise()
        entry.hop?.cancel()
        registry?.remove(entry)
    }
}
