/// One end of a two-way binding (RAC's `RACChannelTerminal`): a property seen as a signal of its
/// values, and as a receiver that sets it.
///
/// Make one for an observable property with `object.channel(\.property)`, for a `MutableProperty`
/// with `property.channel()`, or for anything else from its values (current value first, then each
/// change) and a setter. Join two with ``bind(to:)`` or `<~>`: each side then follows the other, and
/// a value applied from the other side is not sent back (no feedback loop).
///
/// ```swift
/// let volume = ChannelTerminal(values: settings.observe(\.volume), set: { settings.volume = $0 })
/// let slider = ChannelTerminal(values: sliderValues, set: { sliderWidget.value = $0 })
/// volume <~> slider   // volume takes the slider's value now; from then on each follows the other
/// ```
///
/// Echo suppression works per thread: while a terminal applies a value on a thread, change
/// notifications of its property that arrive on that thread are not forwarded. So a channel's
/// properties should be set from one thread at a time (a UI's thread), as any property bound both
/// ways would need anyway.
public final class ChannelTerminal<Value>: SignalConvertible, ObserverProtocol {
    private let values: Signal<Value, Never>
    private let setter: (Value) -> Void
    private let applying = ApplyingThreads()

    /// Creates a terminal from the property's values and a way to set it.
    ///
    /// `values` must send the current value first, then each change (as `observe(\.x)` and
    /// `MutableProperty.signal` do), and should complete when the property's owner goes away.
    ///
    /// ```swift
    /// let terminal = ChannelTerminal(values: model.observe(\.name), set: { [weak model] in model?.name = $0 })
    /// ```
    public init(values: some SignalConvertible<Value, Never>, set: @escaping (Value) -> Void) {
        self.values = values.signal
        self.setter = set
    }

    /// The property's current value, then its changes — except the ones this terminal made itself.
    ///
    /// ```swift
    /// terminal.signal.subscribe(next: { print("now", $0) })
    /// ```
    public var signal: Signal<Value, Never> {
        let values = self.values
        let applying = self.applying
        return Signal { observer in
            values.subscribe(
                next: { value in
                    if applying.includesCurrentThread { return }
                    observer.send(value)
                },
                completed: { observer.sendCompleted() })
        }
    }

    /// Sets the property to the value of a `.next` event; terminal events are ignored (a terminal is
    /// not a stream that ends).
    ///
    /// ```swift
    /// Signal(value: 0.5).subscribe(volumeTerminal)
    /// ```
    public func send(event: Event<Value, Never>) {
        if case .next(let value) = event { apply(value) }
    }

    func apply(_ value: Value) {
        applying.begin()
        setter(value)
        applying.end()
    }

    /// Joins this terminal to `leader`: this side takes the leader's current value at once, then each
    /// side follows the other's changes (RAC's `RACChannelTo(a, p) = RACChannelTo(b, q)`, where `a.p`
    /// takes `b.q`'s value).
    ///
    /// The link ends when either side's values complete (its owner went away) or when the returned
    /// disposable is disposed.
    ///
    /// ```swift
    /// let link = form.channel(\.username).bind(to: account.channel(\.name))   // form shows account's name
    /// ```
    @discardableResult
    public func bind(to leader: ChannelTerminal<Value>) -> any Disposable {
        let link = CompositeDisposable()
        link.add(leader.signal.subscribe(next: { [self] value in apply(value) }, completed: { link.dispose() }))
        if link.isDisposed { return link }
        var sawCurrentValue = false
        link.add(
            signal.subscribe(
                next: { value in
                    // The first value is this side's current value, which it just took from the leader.
                    guard sawCurrentValue else {
                        sawCurrentValue = true
                        return
                    }
                    leader.apply(value)
                },
                completed: { link.dispose() }))
        return link
    }

    /// Joins two terminals both ways; the left side takes the right side's value first.
    /// `follower <~> leader` is `follower.bind(to: leader)`.
    ///
    /// ```swift
    /// form.channel(\.username) <~> account.channel(\.name)
    /// ```
    @discardableResult
    public static func <~> (follower: ChannelTerminal, leader: ChannelTerminal) -> any Disposable {
        follower.bind(to: leader)
    }

    /// One-way: sets the terminal's property to every value of `source` (changes made this way are not
    /// echoed to `source`, which is not a terminal anyway). Ends when `source` completes.
    ///
    /// ```swift
    /// volumeTerminal <~ presets.map(\.volume)
    /// ```
    @discardableResult
    public static func <~ (terminal: ChannelTerminal, source: some SignalConvertible<Value, Never>) -> any Disposable {
        source.subscribe(next: { value in terminal.apply(value) })
    }
}

extension KeyPathObservable {
    /// A channel terminal for an `@Observed` property (RAC's `RACChannelTo(object, property)`): its
    /// values are `observe(keyPath)`, and values it receives set the property. The terminal holds the
    /// object weakly; its values complete when the object deallocates, which ends any link.
    ///
    /// ```swift
    /// form.channel(\.username) <~> account.channel(\.name)   // the form takes the account's name first
    /// ```
    public func channel<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>) -> ChannelTerminal<Value> {
        ChannelTerminal(values: observe(keyPath), set: { [weak self] value in self?[keyPath: keyPath] = value })
    }
}

extension MutableProperty {
    /// A channel terminal for this property: its values are ``MutableProperty/signal``, and values it
    /// receives set ``MutableProperty/value``. Holds the property weakly.
    ///
    /// ```swift
    /// settings.volume.channel() <~> slider.channel(\.value)
    /// ```
    public func channel() -> ChannelTerminal<Value> {
        ChannelTerminal(values: signal, set: { [weak self] value in self?.value = value })
    }
}
