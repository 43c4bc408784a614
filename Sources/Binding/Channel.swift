/// A two-way channel (RAC's `RACChannel`): two terminals, each a signal and a subscriber. What is sent
/// on one terminal reaches the other terminal's subscribers — never its own.
///
/// - The following terminal replays the latest value sent on the leading terminal to each new
///   subscriber; the leading terminal replays nothing.
/// - A terminal event (completion or failure) sent on either terminal ends both: every subscriber of
///   both receives it, a later subscriber receives it at once, and what is sent afterwards is ignored.
///
/// Think of a model on the leading side and a view on the following side: the model sends its value
/// and its changes on `leadingTerminal`; the view subscribes to `followingTerminal` (getting the model's
/// current value first) and sends the user's edits on it, which reach the model's subscription to
/// `leadingTerminal`. A property's terminal (`object.channel(\.property)`) is the following terminal of
/// such a channel whose leading side is the property.
///
/// ```swift
/// let channel = Channel<String, Never>()
/// channel.leadingTerminal.subscribe(next: { print("model got", $0) })
/// channel.leadingTerminal.send("Ann")          // (the model's value)
/// channel.followingTerminal.subscribe(next: { print("view got", $0) })   // view got Ann
/// channel.followingTerminal.send("Bob")        // model got Bob
/// channel.followingTerminal.sendCompleted()    // (both terminals' subscribers complete)
/// ```
public final class Channel<Value, Failure: Error> {
    /// The model's side: its subscribers receive what is sent on ``followingTerminal``, and nothing on
    /// subscription.
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = "" }
    /// let model = Model(), channel = Channel<String, Never>()
    /// channel.leadingTerminal.subscribe(next: { model.name = $0 })
    /// ```
    public let leadingTerminal: ChannelTerminal<Value, Failure>

    /// The view's side: its subscribers receive the latest value sent on ``leadingTerminal`` at once,
    /// then what is sent on it.
    ///
    /// ```swift
    /// let channel = Channel<String, Never>()
    /// channel.leadingTerminal.send("Ann")
    /// channel.followingTerminal.take(1).subscribe(next: { print("current:", $0) })   // current: Ann
    /// ```
    public let followingTerminal: ChannelTerminal<Value, Failure>

    /// Creates a channel with no value yet.
    ///
    /// ```swift
    /// let channel = Channel<Int, Never>()
    /// ```
    public init() {
        let core = ChannelCore<Value, Failure>(setter: nil)
        leadingTerminal = ChannelTerminal(core: core, end: .leading)
        followingTerminal = ChannelTerminal(core: core, end: .following)
    }
}

/// One end of a two-way binding (RAC's `RACChannelTerminal`): a signal of what the other end is sent,
/// and a subscriber that sends to the other end.
///
/// A property's terminal — `object.channel(\.property)`, `property.channel()`, or
/// ``init(values:isolation:set:)`` for anything else — is a signal of the property's value (current value first,
/// then each change it did not make itself) and a receiver that sets it. Join two with ``bind(to:)`` or
/// `<~>`: each side then follows the other, without feedback loops, even when both sides are set from
/// several threads at once.
///
/// ```swift
/// final class Slider: KeyPathObservable { @Observed var value = 0.0 }
/// let settingsVolume = MutableProperty(0.5), sliderWidget = Slider()
/// let volume = ChannelTerminal(values: settingsVolume.signal, set: { settingsVolume.value = $0 })
/// let slider = sliderWidget.channel(\.value)
/// volume <~> slider   // volume takes the slider's value now; from then on each follows the other
/// ```
///
/// Sending a terminal event on a terminal ends its channel (RAC's `RACChannelExamples`): its subscribers
/// receive it, later subscribers receive it at once, a property is no longer observed nor set through
/// it, and a link passes the event on to the other side.
public final class ChannelTerminal<Value, Failure: Error>: SignalConvertible, ObserverProtocol {
    let core: ChannelCore<Value, Failure>
    let end: ChannelEnd

    init(core: ChannelCore<Value, Failure>, end: ChannelEnd) {
        self.core = core
        self.end = end
    }

    /// Creates the terminal of a property from its values and a way to set it (RAC's `RACKVOChannel`'s
    /// following terminal).
    ///
    /// `values` must send the current value first, then every change — including each set to an equal
    /// value — one at a time, in the order of the sets (as `observe(\.x)`, `MutableProperty.signal` and
    /// `BehaviorSubject` do); it should complete when the property's owner goes away, which ends the
    /// channel. The terminal subscribes to `values` at once and for as long as the terminal, a
    /// subscription to it or a link to it exists.
    ///
    /// How the terminal tells its own sets from other changes: each change notification that arrives
    /// while a set it made has not come back yet is the echo of that set, or a change the set
    /// overwrites — neither is sent to subscribers. With `Equatable` values, the echo is recognized by its
    /// value, so the sides of a link settle on the same value however their sets interleave across
    /// threads, and a value equal to the property's is not set again. With other values, the first
    /// notification after each set counts as its echo: exact when the property is set from one thread at
    /// a time, and never a feedback loop. A setter may store another value than it is given (a clamp):
    /// the change it makes counts as the echo when it is delivered during the set, as `observe(\.x)`
    /// and `MutableProperty` deliver it when no other thread is delivering their changes; delivered
    /// later, it is sent on. A setter may also store nothing: with `Equatable` values, the echo that
    /// does not come never swallows a later change; with other values, the next change counts as that
    /// set's echo.
    ///
    /// Made in actor-isolated code (a `@MainActor` view model), `set` runs on that actor: at once when
    /// the value arrives there, else queued to it in order, as `bind(_:to:)` sets a property (see
    /// "Isolation" in `Observable`). Made in nonisolated code, it runs on the thread that sends.
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = "" }
    /// let model = Model()
    /// let terminal = ChannelTerminal(values: model.observe(\.name), set: { [weak model] in model?.name = $0 })
    /// ```
    public convenience init(
        values: some SignalConvertible<Value, Failure>,
        isolation: isolated (any Actor)? = #isolation,
        set: @escaping (Value) -> Void
    ) {
        self.init(core: ChannelCore(setter: set, isolation: CallerIsolation(isolation)), end: .following)
        core.observe(values.signal)
    }

    /// What the other end is sent. For a property's terminal: the property's current value, then its
    /// changes — except the ones this terminal made. Ends with the channel; a subscriber that arrives
    /// after the end receives it at once (after the last value, for a following terminal).
    ///
    /// ```swift
    /// let volume = MutableProperty(0.5)
    /// let terminal = volume.channel()
    /// terminal.signal.subscribe(next: { print("now", $0) })   // now 0.5
    /// volume.value = 0.8                                      // now 0.8
    /// ```
    public var signal: Signal<Value, Failure> {
        core.signal(for: end)
    }

    /// Sends `event` to the other end: a value reaches the other terminal's subscribers (for a
    /// property's terminal: sets the property); a terminal event ends the channel, both terminals'
    /// subscribers receive it.
    ///
    /// ```swift
    /// let volume = MutableProperty(0.2)
    /// let volumeTerminal = volume.channel()
    /// Signal(value: 0.5).subscribe(volumeTerminal)   // sets the volume to 0.5, then ends the channel
    /// volumeTerminal.send(0.8)                       // ignored: the channel has ended
    /// ```
    public func send(event: Event<Value, Failure>) {
        switch event {
        case .next(let value):
            core.accept(value, at: end, echoID: nil, link: nil)
        case .error, .completed:
            core.finish(event)
        }
    }

    /// Joins this terminal to `leader`: this side takes the leader's current value at once, then each
    /// side follows the other's changes (RAC's `RACChannelTo(a, p) = RACChannelTo(b, q)`, where `a.p`
    /// takes `b.q`'s value).
    ///
    /// The link passes terminal events both ways: when either side's channel ends (its property's owner
    /// went away, or a terminal event was sent on it), the other's ends too, and the link is disposed.
    /// Disposing the returned link stops both directions and leaves both channels running.
    ///
    /// Joining two terminals of the same channel (`terminal <~> terminal`, or a channel's
    /// `followingTerminal <~> leadingTerminal`) would send each value round in a loop forever: it is
    /// refused, and the returned link is already disposed.
    ///
    /// ```swift
    /// final class Form: KeyPathObservable { @Observed var username = "" }
    /// final class Account: KeyPathObservable { @Observed var name = "ann" }
    /// let form = Form(), account = Account()
    /// let link = form.channel(\.username).bind(to: account.channel(\.name))   // form shows account's name
    /// ```
    @discardableResult
    public func bind(to leader: ChannelTerminal<Value, Failure>) -> any Disposable {
        ChannelLink.join(follower: self, leader: leader)
    }

    /// Joins two terminals both ways; the left side takes the right side's value first.
    /// `follower <~> leader` is `follower.bind(to: leader)`.
    ///
    /// ```swift
    /// final class Form: KeyPathObservable { @Observed var username = "" }
    /// final class Account: KeyPathObservable { @Observed var name = "ann" }
    /// let form = Form(), account = Account()
    /// form.channel(\.username) <~> account.channel(\.name)
    /// ```
    @discardableResult
    public static func <~> (follower: ChannelTerminal, leader: ChannelTerminal) -> any Disposable {
        follower.bind(to: leader)
    }

    /// One-way: sends every value of `source` on the terminal (for a property's terminal: sets the
    /// property; those sets are not sent to the terminal's subscribers). Unlike `source.subscribe(terminal)`,
    /// the end of `source` does not end the channel; the binding ends when `source` completes, when the
    /// channel ends, or when it is disposed.
    ///
    /// ```swift
    /// nonisolated struct Preset { var volume: Double }   // plain data, in an app module too
    /// let volume = MutableProperty(0.5)
    /// let volumeTerminal = volume.channel()
    /// let presets = Signal(values: [Preset(volume: 0.2), Preset(volume: 0.8)])
    /// volumeTerminal <~ presets.map(\.volume)   // volume is 0.8; the channel goes on
    /// ```
    @discardableResult
    public static func <~ (terminal: ChannelTerminal, source: some SignalConvertible<Value, Never>) -> any Disposable {
        // A terminal whose setter runs on an actor gets the values there, through the subscription's own
        // hop: disposing the binding drops what is still queued for the actor (issue 42, bug 3).
        let binding = source.signal.delivered(on: terminal.core.setterHop?.isolation)
            .subscribe(next: { value in terminal.send(value) })
        terminal.core.endWithChannel(binding)
        return binding
    }
}

/// A channel can be shared across threads when its values can: its terminals' bookkeeping is guarded by
/// a lock, and values and events may be sent on them from any thread.
///
/// ```swift
/// let channel = Channel<Int, Never>()
/// Task.detached { channel.followingTerminal.send(1) }
/// ```
// Safety: a channel holds only its two terminals, immutable, whose state is their core's (a lock).
extension Channel: @unchecked Sendable where Value: Sendable {}

/// A terminal can be shared across threads when its values can: sets, sends and links may be made from
/// any thread (a property's setter then runs on the sending thread).
///
/// ```swift
/// let volume = MutableProperty(0.5)
/// let terminal = volume.channel()
/// Task.detached { terminal.send(0.5) }
/// ```
// Safety: a terminal's fields are immutable; its core's state is guarded by the channels' lock, and the
// setter runs outside it (on the setter's actor when it has one).
extension ChannelTerminal: @unchecked Sendable where Value: Sendable {}

extension KeyPathObservable {
    /// A channel terminal for an `@Observed` property (RAC's `RACChannelTo(object, property)`): its
    /// values are `observe(keyPath)`, and values it receives set the property. The terminal holds the
    /// object weakly; its channel completes when the object deallocates, which ends any link.
    ///
    /// ```swift
    /// final class Form: KeyPathObservable { @Observed var username = "" }
    /// final class Account: KeyPathObservable { @Observed var name = "ann" }
    /// let form = Form(), account = Account()
    /// form.channel(\.username) <~> account.channel(\.name)   // the form takes the account's name first
    /// ```
    public func channel<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, isolation: isolated (any Actor)? = #isolation
    ) -> ChannelTerminal<Value, Never> {
        ChannelTerminal(
            values: observe(keyPath), isolation: isolation,
            set: { [weak self] value in self?[keyPath: keyPath] = value })
    }
}

extension MutableProperty {
    /// A channel terminal for this property: its values are the property's `signal`, and values it
    /// receives set its `value`. Holds the property weakly; its channel completes when the
    /// property deinitializes. Both sides of a link may be set from any thread.
    ///
    /// ```swift
    /// final class Slider: KeyPathObservable { @Observed var value = 0.0 }
    /// let volume = MutableProperty(0.5), slider = Slider()
    /// volume.channel() <~> slider.channel(\.value)   // the volume takes the slider's value first
    /// ```
    public func channel() -> ChannelTerminal<Value, Never> {
        ChannelTerminal(values: signal, set: { [weak self] value in self?.value = value })
    }
}

extension ChannelTerminal: DeliversOnAnyThread {}
