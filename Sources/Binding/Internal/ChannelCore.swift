import Observable
import TetherEngine

/// One of a channel's two terminals.
enum ChannelEnd {
    case leading
    case following

    /// The terminal whose subscribers receive what is sent on this one.
    var other: ChannelEnd { self == .leading ? .following : .leading }
}

/// What a terminal's subscribers are sent. A silent delivery only updates what the following terminal
/// replays to its next subscriber: a property's change that the channel made itself (its echo), or one
/// that a set by the channel is about to overwrite.
struct ChannelDelivery<Value> {
    let value: Value
    let isSilent: Bool
}

/// A link's way out of one channel: values that reach one terminal's subscribers are also sent to
/// `target`.
struct ChannelEdge<Value, Failure: Error> {
    let link: ChannelLink<Value, Failure>
    let target: ChannelTerminal<Value, Failure>
}

/// One value to pass along an edge, with the echo announced for it on the target (if it is a property's).
struct ChannelForward<Value, Failure: Error> {
    let edge: ChannelEdge<Value, Failure>
    let echoID: UInt64?
}

/// The lock that guards the bookkeeping of every channel and link.
///
/// One lock for all of them, so that a link decides for both of its channels at once — "this change of
/// one property is new, and the value it sends to the other property is an echo to expect there" —
/// without an order between two locks. It is held for a few loads and stores of that bookkeeping, never
/// while a setter, a subscriber or a value's `==` runs.
final class ChannelLock: Sendable {
    static let shared = ChannelLock()
    let lock = Lock()

    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }
}

/// The shared state of a channel's two terminals (RAC's `RACChannel` with its two subjects).
///
/// - What is sent on the following terminal goes to `toLeading`'s subscribers — or, for a property's
///   channel, sets the property. What is sent on the leading terminal (for a property's channel: each
///   change of the property) goes to `toFollowing`'s subscribers, which replays the latest one.
/// - A terminal event sent on either terminal ends both, and is replayed to later subscribers.
///
/// **Echoes** (property channels). Each set the channel makes is recorded as an expected echo, *before*
/// the set, under ``ChannelLock``. The property's change notifications arrive one at a time and in the
/// order of the sets, so a notification that arrives while echoes are expected is either the echo of the
/// first of them or a change made before that set, which the set overwrites: neither is sent on. With
/// `Equatable` values, the notification equal to an expected echo consumes it (and the ones before it,
/// for properties that skip equal sets); without, the first expected echo is consumed. A notification that
/// arrives when no echo is expected is a change made by someone else: it is sent on. A setter that stores
/// another value than it is given (a clamp) is seen when the setting thread delivers notifications during
/// the set but none matches: the set's echo is then no longer expected. With `Equatable` values, a set
/// during which nothing at all is delivered (no other set in progress, by a property seen delivering
/// during its sets, and the set not left for later by the property's gate — see
/// ``DeferredSubmissionWatch``) stored nothing: its echo is dropped when it returns; and a returned set's echo is
/// stale as soon as a notification matches no expected echo while no set is in progress: stale echoes
/// are dropped, and if none is left that notification is sent on — so an echo that never comes cannot
/// swallow later changes. (Without `==`, the next notification counts as that echo.)
///
/// A set the property's gate left for later (queued behind the delivery another thread is making, or
/// behind the setting thread's own) is heard after it returns, after the changes queued before it: its
/// echo stays expected as if the set were in progress, and none of the rules above that look at what a
/// set delivered apply to it. (Before, such a set looked like one that stored nothing: its echo was
/// dropped and, heard later, sent back to the other side, which could send it back again.) The cost: a
/// setter that stores another value than it is given, when its set is left for later and delivered by
/// another thread, is not detected; its echo stays expected until a later echo of the link matches, and
/// until then the changes of that property are taken for changes the pending set overwrites.
///
/// The echo rules are a state machine of their own, ``ChannelEchoes``: this type takes its decisions
/// under the lock, one transition each, and acts on them after.
///
/// Threading: the bookkeeping (`var`s) is guarded by ``ChannelLock``; setters, subjects and `==` run after
/// the lock is released. A property's notifications are handled one at a time (the values signal delivers
/// serially).
final class ChannelCore<Value, Failure: Error>: @unchecked Sendable {
    // Safety: the `var`s below are only touched under `ChannelLock.shared`; the subjects are thread-safe;
    // the `let` closures are immutable. Unconditional because a subscription's disposal (which may run on
    // any thread) keeps the core alive; values only cross threads through the public types, which are
    // `Sendable` only when `Value` is.
    let toLeading = Subject<ChannelDelivery<Value>, Failure>()
    let toFollowing = ReplaySubject<ChannelDelivery<Value>, Failure>(capacity: 1)
    /// Sets the property of a property's channel; `nil` for a plain channel.
    let setter: ((Value) -> Void)?
    /// Runs the setter on the actor of the code that made the terminal (a `@MainActor` view model's
    /// property is set there); `nil` when that code was nonisolated: the setter runs on the sending thread.
    let setterHop: ActorHop?
    /// `==` when `Value` is `Equatable`.
    let isEqual: ((Value, Value) -> Bool)?

    var terminalEvent: Event<Value, Failure>?
    var edgesFromLeading: [ChannelEdge<Value, Failure>] = []
    var edgesFromFollowing: [ChannelEdge<Value, Failure>] = []
    /// The echoes expected, the sets in progress and the latest value.
    var echoes = ChannelEchoes<Value>()
    var valuesSubscription: (any Disposable)?
    /// One-way bindings into this channel, disposed when it ends.
    var dependents: [any Disposable] = []

    init(setter: ((Value) -> Void)?, isolation: CallerIsolation? = nil) {
        self.setter = setter
        self.setterHop = setter == nil ? nil : isolation.map(ActorHop.init)
        self.isEqual = channelEquality(for: Value.self)
    }

    deinit {
        valuesSubscription?.dispose()
    }

    var lock: ChannelLock { .shared }

    // MARK: Subscribers

    /// The signal of one terminal: the following terminal's replays the latest value first (its first
    /// event is delivered even if silent), then sends what is not silent.
    func signal(for end: ChannelEnd) -> Signal<Value, Failure> {
        let deliveries = end == .following ? toFollowing.signal : toLeading.signal
        return Signal.uncheckedCreate { [self] observer in
            var isFirst = true
            let subscription = deliveries.subscribe(
                next: { delivery in
                    if isFirst || !delivery.isSilent { observer.send(delivery.value) }
                    isFirst = false
                },
                error: { observer.sendError($0) },
                completed: { observer.sendCompleted() })
            // The subscription keeps the channel (and so its property observation) alive.
            return AnyDisposable { withExtendedLifetime(self) { subscription.dispose() } }
        }
    }

    // MARK: Values in

    /// A value sent on the terminal `end`, directly (`echoID == nil`) or by `link`.
    func accept(_ value: Value, at end: ChannelEnd, echoID: UInt64?, link: ChannelLink<Value, Failure>?) {
        if end == .following, let setter {
            if let setterHop {
                // The set, with its echo bookkeeping, runs where the setter belongs, in arrival order.
                setterHop.run { self.set(value, with: setter, echoID: echoID, link: link) }
            } else {
                set(value, with: setter, echoID: echoID, link: link)
            }
        } else {
            emit(value, to: end.other, link: link)
        }
    }

    /// A plain channel: `value` goes to the subscribers of the terminal `end` and along its edges.
    func emit(_ value: Value, to end: ChannelEnd, link: ChannelLink<Value, Failure>?) {
        // `replaced` (the previous value) is released after the lock, as user values must be.
        let decision: (plans: [ChannelForward<Value, Failure>], replaced: Value?)? = lock.withLock {
            if terminalEvent != nil || link?.isActiveLocked == false { return nil }
            var replaced: Value?
            if end == .following { replaced = echoes.replaceLatest(value) }
            return (forwardsLocked(value, from: end), replaced)
        }
        guard let plans = decision?.plans else { return }
        forward(value, plans)
        let delivery = ChannelDelivery(value: value, isSilent: false)
        if end == .following { toFollowing.send(delivery) } else { toLeading.send(delivery) }
    }

    /// A property's channel: sets the property unless it already holds `value` (`Equatable` values, no
    /// echo pending, nothing seen since the comparison).
    func set(_ value: Value, with setter: (Value) -> Void, echoID: UInt64?, link: ChannelLink<Value, Failure>?) {
        let decision: SetDecision = lock.withLock {
            if terminalEvent != nil || link?.isActiveLocked == false {
                return .drop(echoes.remove(echoID))
            }
            if echoes.expectsOnly(echoID), isEqual != nil, let latest = echoes.latest {
                return .compare(current: latest, version: echoes.version)
            }
            return .set
        }
        switch decision {
        case .drop:
            return
        case .compare(let current, let seen):
            if let isEqual, isEqual(current, value) {
                let skipped: (Bool, ChannelEcho<Value>?) = lock.withLock {
                    guard echoes.version == seen else { return (false, nil) }
                    return (true, echoes.remove(echoID))
                }
                if skipped.0 { return }
            }
        case .set:
            break
        }
        let thread = currentThreadID
        let started: (id: UInt64?, dropped: ChannelEcho<Value>?) = lock.withLock {
            // Checked again: the channel may have ended, or the link been disposed, since the decision.
            if terminalEvent != nil || link?.isActiveLocked == false { return (nil, echoes.remove(echoID)) }
            guard let id = echoID ?? announceEchoLocked(value, at: .following) else { return (nil, nil) }
            echoes.beginSet(id, on: thread)
            return (id, nil)
        }
        guard let startedID = started.id else { return }
        // Whether the set was left for later: queued behind the delivery another thread is making (the
        // property's gate was owned), or behind this thread's own. Its notification then comes after the
        // set has returned, on whichever thread delivers it, and is still this set's echo.
        let watched = DeferredSubmissionWatch.watch { setter(value) }
        let dropped: ChannelEcho<Value>? = lock.withLock {
            echoes.endSet(
                startedID, on: thread, deferred: watched.deferred, ahead: watched.ahead, dropsUnheard: isEqual != nil)
        }
        _ = dropped
    }

    /// A change notification of a property's channel (called serially, in the order of the sets).
    func propertyChanged(_ value: Value) {
        let thread = currentThreadID
        let decision: ChangeDecision = lock.withLock {
            if terminalEvent != nil { return .ignore }
            if let expected = echoes.notificationArrived(on: thread) { return .compare(expected) }
            return .sendOn(forwardsLocked(value, from: .following), replaced: echoes.replaceLatest(value))
        }
        switch decision {
        case .ignore:
            return
        case .sendOn(let plans, _):
            forward(value, plans)
            toFollowing.send(ChannelDelivery(value: value, isSilent: false))
        case .compare(let expected):
            // An echo, or a change made before the first expected echo's set (which overwrites it).
            let matched: ChannelEcho<Value>?
            if let isEqual {
                // A value not equal to itself (a NaN) can't be recognized: it counts as the next echo.
                matched = expected.first { isEqual($0.value, value) || !isEqual($0.value, $0.value) }
            } else {
                matched = expected.first
            }
            // Values replaced under the lock are released after it (`released`).
            let outcome: (plans: [ChannelForward<Value, Failure>]?, released: ([ChannelEcho<Value>], Value?)) =
                lock.withLock {
                    if terminalEvent != nil { return (nil, ([], nil)) }
                    if let matched { return (nil, (echoes.consume(through: matched.id), echoes.replaceLatest(value))) }
                    // No expected echo matches: the stale ones are dropped (see `ChannelEchoes.dropStale`). If
                    // none is left, the notification is a change made by someone else: it is sent on.
                    let stale = echoes.dropStale()
                    let replaced = echoes.replaceLatest(value)
                    if echoes.isExpectingNone { return (forwardsLocked(value, from: .following), (stale, replaced)) }
                    return (nil, (stale, replaced))
                }
            _ = outcome.released
            if let plans = outcome.plans {
                forward(value, plans)
                toFollowing.send(ChannelDelivery(value: value, isSilent: false))
            } else {
                toFollowing.send(ChannelDelivery(value: value, isSilent: true))
            }
        }
    }

    /// What to do with a value for the property, decided under the lock.
    enum SetDecision {
        /// The channel or the link has ended (the echo it no longer expects is released after the lock).
        case drop(ChannelEcho<Value>?)
        /// Set it unless it equals `current` and nothing changed since `version`.
        case compare(current: Value, version: UInt64)
        case set
    }

    /// What to do with a change notification, decided under the lock.
    enum ChangeDecision {
        case ignore
        /// A change made by someone else: send it on (and along these edges). `replaced` is the previous
        /// latest value, released after the lock.
        case sendOn([ChannelForward<Value, Failure>], replaced: Value?)
        /// Echoes are expected: the notification is one, or a change a pending set overwrites.
        case compare([ChannelEcho<Value>])
    }

    // MARK: Bookkeeping (under the lock)

    /// Expects the echo of a set of `value` about to be made through the terminal `end` (only a
    /// property's following terminal sets anything). Returns its ID, or `nil` if nothing will be set.
    func announceEchoLocked(_ value: Value, at end: ChannelEnd) -> UInt64? {
        guard end == .following, setter != nil, terminalEvent == nil else { return nil }
        return echoes.announce(value)
    }

    /// Where `value`, on its way to the subscribers of the terminal `end`, also goes.
    func forwardsLocked(_ value: Value, from end: ChannelEnd) -> [ChannelForward<Value, Failure>] {
        let edges = end == .following ? edgesFromFollowing : edgesFromLeading
        return edges.map { edge in
            ChannelForward(edge: edge, echoID: edge.target.core.announceEchoLocked(value, at: edge.target.end))
        }
    }

    /// What the terminal `end` replays to a new subscriber: the value it will hold once the pending
    /// sets are made.
    func replayLocked(at end: ChannelEnd) -> Value? {
        guard end == .following else { return nil }
        return echoes.replay
    }

    func addEdgeLocked(_ edge: ChannelEdge<Value, Failure>, from end: ChannelEnd) {
        if end == .following { edgesFromFollowing.append(edge) } else { edgesFromLeading.append(edge) }
    }

    func removeEdgesLocked(of link: ChannelLink<Value, Failure>) {
        edgesFromLeading.removeAll { $0.link === link }
        edgesFromFollowing.removeAll { $0.link === link }
    }

    func forward(_ value: Value, _ plans: [ChannelForward<Value, Failure>]) {
        for plan in plans {
            plan.edge.target.core.accept(value, at: plan.edge.target.end, echoID: plan.echoID, link: plan.edge.link)
        }
    }

    // MARK: Lifetime

    /// A property's channel: observes the property's values (current value first, then each change).
    /// The channel completes when they end, with a terminal event or without (their source went away).
    func observe(_ values: Signal<Value, Failure>) {
        let subscription = CompositeDisposable()
        subscription.add { [weak self] in self?.finish(.completed) }
        values.start(
            Sink { [weak self] event in
                guard let self else { return }
                switch event {
                case .next(let value): propertyChanged(value)
                case .error, .completed: finish(event)
                }
            }, in: subscription)
        let finished = lock.withLock {
            if terminalEvent != nil { return true }
            valuesSubscription = subscription
            return false
        }
        if finished { subscription.dispose() }
    }

    /// Ends `dependent` when the channel ends (at once if it has).
    func endWithChannel(_ dependent: any Disposable) {
        // The dependents already disposed are released after the lock (they hold user closures).
        let (finished, released): (Bool, [any Disposable]) = lock.withLock {
            if terminalEvent != nil { return (true, []) }
            let kept = dependents.filter { !$0.isDisposed }
            let released = dependents
            dependents = kept
            dependents.append(dependent)
            return (false, released)
        }
        _ = released
        if finished { dependent.dispose() }
    }

    /// Ends the channel with `event` (`.completed` or `.error`): both terminals' subscribers receive it,
    /// now and later; the property is no longer observed nor set; links pass it on.
    func finish(_ event: Event<Value, Failure>) {
        // Everything taken out under the lock (edges, echoes, dependents) is released after it.
        let ended:
            (
                links: [ChannelLink<Value, Failure>], subscription: (any Disposable)?, dependents: [any Disposable],
                released: ([ChannelEdge<Value, Failure>], [ChannelEcho<Value>])
            )? =
                lock.withLock {
                    if terminalEvent != nil { return nil }
                    terminalEvent = event
                    let edges = edgesFromLeading + edgesFromFollowing
                    let ended = (edges.map(\.link), valuesSubscription, dependents, (edges, echoes.removeAllExpected()))
                    edgesFromLeading = []
                    edgesFromFollowing = []
                    valuesSubscription = nil
                    dependents = []
                    return ended
                }
        guard let ended else { return }
        _ = ended.released
        // The property is no longer set through the channel: sets still queued for its actor are dropped.
        setterHop?.cancel()
        ended.subscription?.dispose()
        let terminal = event.map { ChannelDelivery(value: $0, isSilent: true) }
        toLeading.send(event: terminal)
        toFollowing.send(event: terminal)
        for link in ended.links { link.channelFinished(self, with: event) }
        for dependent in ended.dependents { dependent.dispose() }
    }
}

/// A two-way link between two terminals (`follower <~> leader`): what reaches one terminal's subscribers
/// is sent on the other; a terminal event of either channel is passed to the other; disposing it stops
/// both directions.
final class ChannelLink<Value, Failure: Error>: Disposable, @unchecked Sendable {
    // Safety: `ends` is only touched under `ChannelLock.shared`.
    /// The two terminals, released when the link ends.
    var ends: (follower: ChannelTerminal<Value, Failure>, leader: ChannelTerminal<Value, Failure>)?

    init(follower: ChannelTerminal<Value, Failure>, leader: ChannelTerminal<Value, Failure>) {
        ends = (follower, leader)
    }

    var isActiveLocked: Bool { ends != nil }

    var isDisposed: Bool {
        ChannelLock.shared.withLock { ends == nil }
    }

    func dispose() {
        _ = end()
    }

    /// Ends the link; returns its terminals if it was active.
    func end() -> (follower: ChannelTerminal<Value, Failure>, leader: ChannelTerminal<Value, Failure>)? {
        ChannelLock.shared.withLock {
            guard let ends else { return nil }
            self.ends = nil
            ends.follower.core.removeEdgesLocked(of: self)
            ends.leader.core.removeEdgesLocked(of: self)
            return ends
        }
    }

    /// `core` ended with `event`: the other side ends with it.
    func channelFinished(_ core: ChannelCore<Value, Failure>, with event: Event<Value, Failure>) {
        guard let ends = end() else { return }
        let other = ends.follower.core === core ? ends.leader : ends.follower
        other.send(event: event)
    }

    /// Joins `follower` to `leader`: the follower takes the leader's current value, then each follows the
    /// other. Two terminals of one channel (a terminal and itself, or a channel's two terminals) are not
    /// joined: what reaches one would be sent on the other, and come back, forever. The link returned then
    /// is already disposed.
    static func join(
        follower: ChannelTerminal<Value, Failure>, leader: ChannelTerminal<Value, Failure>
    ) -> ChannelLink {
        let link = ChannelLink(follower: follower, leader: leader)
        if follower.core === leader.core {
            _ = link.end()
            return link
        }
        let lock = ChannelLock.shared
        // A terminated side ends the other (RAC: subscribing to a terminated terminal replays its end).
        let ended: (ChannelTerminal<Value, Failure>, Event<Value, Failure>)? = lock.withLock {
            if let event = leader.core.terminalEvent { return (follower, event) }
            if let event = follower.core.terminalEvent { return (leader, event) }
            // The follower's changes go to the leader from now on.
            follower.core.addEdgeLocked(ChannelEdge(link: link, target: leader), from: follower.end)
            return nil
        }
        if let (other, event) = ended {
            _ = link.end()
            other.send(event: event)
            return link
        }
        // The follower takes the leader's value; the leader's changes go to the follower from the moment
        // the leader is seen unchanged since the last value taken (so none falls between the two).
        var syncedVersion: UInt64?
        while true {
            let sync: (value: Value, echoID: UInt64?, version: UInt64)? = lock.withLock {
                guard link.isActiveLocked else { return nil }
                let version = leader.core.echoes.version
                guard let value = leader.core.replayLocked(at: leader.end), version != syncedVersion else {
                    leader.core.addEdgeLocked(ChannelEdge(link: link, target: follower), from: leader.end)
                    return nil
                }
                return (value, follower.core.announceEchoLocked(value, at: follower.end), version)
            }
            guard let sync else { return link }
            follower.core.accept(sync.value, at: follower.end, echoID: sync.echoID, link: link)
            syncedVersion = sync.version
        }
    }
}

/// `==` for `Value`, if it is `Equatable` (found at run time: a channel's value type is unconstrained).
func channelEquality<Value>(for type: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    return equatable.channelEquality(as: type)
}

extension Equatable {
    /// `==` on values of `Other`, which is `Self`.
    fileprivate static func channelEquality<Other>(as _: Other.Type) -> (Other, Other) -> Bool {
        // `Other` is `Self`, so the casts cannot fail (a nil of an optional `Self` casts to nil).
        { lhs, rhs in (lhs as! Self) == (rhs as! Self) }
    }
}
