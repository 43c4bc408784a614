import TetherEngine

/// Runs one subscription to `flatMap`, `flatMapLatest`, `concatMap` and their signal-of-signals
/// forms: owns the inputs, their lifetimes and the sink, and lets a ``FlattenStateMachine`` decide.
///
/// Every input — outer events and inner events — goes through one ``Mailbox``, so the state machine
/// is only touched by the mailbox's current owner and needs no lock.
///
/// Inner signals are started from inside the handler, each in a child lifetime that the state
/// machine holds (not the subscription's lifetime, so starting and finishing an inner signal takes
/// no lock). The driver is registered in the subscription's lifetime right after the mailbox: when
/// the lifetime is disposed, the mailbox is closed first — which waits for a handler running on
/// another thread — and only then does the driver dispose the inner lifetimes.
///
/// The events an inner signal sends synchronously while it is being started are handled inline, at
/// once, rather than queued behind the start: this keeps them cheap and lets a synchronous infinite
/// inner signal be cut off by a downstream `take`. Everything else is posted to the mailbox. The
/// state is consistent whenever an inner signal is started, so the inline handling is safe.
@usableFromInline
final class FlattenDriver<OuterValue, Inner: SignalConvertible, State: FlattenStateMachine>: Disposable,
    @unchecked Sendable
where State.Inner == Inner, State.Subscription == CompositeDisposable {
    // Safety: the variables are touched only by the thread that owns the mailbox's gate (the
    // handler, and inner sinks that checked ownership first), or by `dispose()` once the mailbox
    // is closed and its last handler has returned.
    @usableFromInline typealias Value = Inner.Value
    @usableFromInline typealias Failure = Inner.Failure

    @usableFromInline
    enum Input {
        case outer(Event<OuterValue, Failure>)
        case inner(UInt64, Event<Value, Failure>)
        /// The outer source's subscription ended (after its terminal event, or without one).
        case outerGone
        /// An inner signal's subscription ended (after its terminal event, or without one).
        case innerGone(UInt64)
    }

    @usableFromInline let sink: Sink<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable
    /// Released once the outer source has ended: what it captured (often the inners' subjects) must not
    /// keep the last inners — and so the subscription — alive.
    @exclusivity(unchecked) @usableFromInline var transform: ((OuterValue) -> Inner)?
    /// Whether the outer source's values are the inner signals themselves (`flatten`, `switchToLatest`,
    /// `concat`: `OuterValue` is `Inner`), taken as they are instead of through a transform (`transform` is
    /// `nil` then). Cleared, as `transform` is released, once the outer source has ended.
    @exclusivity(unchecked) @usableFromInline var outerValuesAreInners: Bool
    @usableFromInline let mailbox: Mailbox<Input>
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)
    @exclusivity(unchecked) @usableFromInline var state = State()
    /// The inner signal being started right now (its synchronous events are handled inline).
    @exclusivity(unchecked) @usableFromInline var startingID: UInt64?
    /// The link of an inner signal that has finished and that nothing references any more (a synchronous
    /// cold inner, which ends during its own start): the next inner reuses it instead of allocating one.
    /// Dropped when the subscription is disposed (it references the driver).
    @exclusivity(unchecked) @usableFromInline var spareLink: FlattenInnerLink<OuterValue, Inner, State>?
    /// The lifetime of such an inner, renewed (see `CompositeDisposable.renewIfFinished()`), for the next inner.
    @exclusivity(unchecked) @usableFromInline var spareLifetime: CompositeDisposable?

    /// `transform` `nil`: the outer source's values are the inner signals (`OuterValue` must be `Inner`).
    @inlinable
    init(sink: Sink<Value, Failure>, lifetime: CompositeDisposable, transform: ((OuterValue) -> Inner)?) {
        self.sink = sink
        self.lifetime = lifetime
        self.transform = transform
        self.outerValuesAreInners = transform == nil
        // The handler reaches the driver through a box filled in below (the mailbox is a constant of
        // the driver, created before `self` is available). The cycle driver → mailbox → handler →
        // box → driver ends when the lifetime is disposed: the mailbox then drops its handler.
        let box = FlattenDriverBox<OuterValue, Inner, State>()
        self.mailbox = Mailbox(lifetime: lifetime) { input in box.driver?.handle(input) }
        box.driver = self
        lifetime.add(self)
    }

    @usableFromInline var isDisposed: Bool { mailbox.isDisposed }

    /// The downstream end, through which the subscription ends.
    @inlinable
    var output: OperatorOutput<Value, Failure> { OperatorOutput(sink, lifetime) }

    /// Disposes the inner signals' lifetimes. Runs after the mailbox was closed (it is registered
    /// in the subscription's lifetime after it), so no handler runs concurrently.
    @usableFromInline
    func dispose() {
        transform = nil
        outerValuesAreInners = false
        spareLink = nil
        spareLifetime = nil
        for child in state.disposed() { child.dispose() }
    }

    /// Posts `input` to the mailbox; when it runs, the mailbox calls ``handle(_:)`` directly (what its
    /// handler does, without the call through the handler's closure and the box).
    @inlinable
    func post(_ input: consuming Input) {
        Self.post(input, to: mailbox, for: .passUnretained(self))
    }

    /// Posts `input` to `mailbox`, the mailbox of `driver`, which is not retained: the outer source's sink
    /// holds the mailbox only, as the handler does not keep the driver — and what it holds, the downstream
    /// sink among them — alive once the subscription has ended. The driver is reached only to handle the
    /// input, and the mailbox does that only while its handler, which holds the driver, is still there.
    @inlinable @inline(__always)
    static func post(_ input: consuming Input, to mailbox: Mailbox<Input>, for driver: Unmanaged<FlattenDriver>) {
        mailbox.post(input) { input in driver._withUnsafeGuaranteedRef { $0.handle(input) } }
    }

    /// Posts `.outerGone`.
    @inlinable
    func outerWentAway() {
        post(.outerGone)
    }

    /// ``outerWentAway()`` as the closure the outer source's lifetime runs when it is disposed (added with
    /// `CompositeDisposable.addUnchecked(_:)`, for the reason ``FlattenInnerLink/endNotice`` explains).
    @inlinable
    var outerEndNotice: () -> Void {
        { self.outerWentAway() }
    }

    /// The inner `id`'s subscription ended: posts `.innerGone(id)`, unless this thread owns the mailbox
    /// and the inner is no longer live — it was replaced, or sent its terminal event — when it is no
    /// news (each state machine ignores it then), and queueing it would cost an input for nothing. That
    /// is the common case: a replaced inner is disposed, and a finished one disposes its lifetime, from
    /// inside a handler. Only the owner may read the state, so another thread always posts.
    ///
    /// The owner posts it behind the inputs queued so far (``Mailbox/postBehindQueued(_:handlingWith:)``):
    /// an inner that ended on another thread may have queued its terminal event there, and its end is news
    /// only after it (`startInner` learns of such an end on the owner's thread).
    @inlinable
    func innerWentAway(_ id: UInt64) {
        if mailbox.isOwnedByCurrentThread {
            if !state.isLive(id) { return }
            postBehindQueued(.innerGone(id))
            return
        }
        post(.innerGone(id))
    }

    /// Posts `input` behind the inputs queued so far (see ``Mailbox/postBehindQueued(_:handlingWith:)``).
    @inlinable
    func postBehindQueued(_ input: consuming Input) {
        let driver = Unmanaged.passUnretained(self)
        mailbox.postBehindQueued(input) { input in driver._withUnsafeGuaranteedRef { $0.handle(input) } }
    }

    /// The inner `id` sent the value `value`: as ``innerSent(_:from:)``, without the trip through `Input`
    /// and `handle(_:)`'s switch when handled inline (the common case). Not inlined: the inner's sink then
    /// stays small enough for its reabstraction thunk to read the event's tag one byte wide (see
    /// ``FlattenInnerLink/send(_:)``); inlined, the thunk loaded it four bytes wide again.
    ///
    /// The common case — a value the inner being started sends on this thread, the mailbox open — is all this
    /// function does itself; the rest is ``innerSentOutsideStart(value:from:)``, out of line, so that the common
    /// path saves no registers and sets up no frame for calls it does not make.
    @inlinable @inline(never)
    func innerSent(value: Value, from id: UInt64) {
        if _fastPath(mailbox.isOwnedByCurrentThread && startingID == id && !mailbox.closed.isSetRelaxed) {
            if state.forwardsValue(from: id) { sink.send(next: value) }
            return
        }
        innerSentOutsideStart(value: value, from: id)
    }

    /// ``innerSent(value:from:)`` past its common case: a value sent on another thread or after the inner's start
    /// (posted), or one sent during the start once the mailbox was closed.
    @inlinable @inline(never)
    func innerSentOutsideStart(value: Value, from id: UInt64) {
        if mailbox.isOwnedByCurrentThread && startingID == id {
            // The mailbox was closed: disposed from another thread, which waits for this handler. Stop the source.
            state.subscription(of: id)?.dispose()
        } else {
            post(.inner(id, .next(value)))
        }
    }

    /// The inner `id` sent `event`: the events an inner sends synchronously while it is being started are
    /// handled inline (see the type's notes), the others posted.
    @inlinable @inline(never)
    func innerSent(_ event: Event<Value, Failure>, from id: UInt64) {
        if mailbox.isOwnedByCurrentThread && startingID == id {
            if mailbox.closed.isSetRelaxed {
                // Disposed from another thread, which waits for this handler: stop the source.
                state.subscription(of: id)?.dispose()
                return
            }
            handle(.inner(id, event))
        } else {
            post(.inner(id, event))
        }
    }

    /// The outer source sent `event`: handles it at once when the mailbox is idle (the event is not copied
    /// into an ``Input``), or posts it.
    @inlinable
    static func outerSent(
        _ event: Event<OuterValue, Failure>, to mailbox: Mailbox<Input>, for driver: Unmanaged<FlattenDriver>
    ) {
        if mailbox.performIfIdle({ driver._withUnsafeGuaranteedRef { $0.handleOuter(event) } }) { return }
        post(.outer(event), to: mailbox, for: driver)
    }

    @inlinable
    func handle(_ input: Input) {
        if state.isFinished { return }
        switch input {
        case .outer(let event):
            handleOuter(event)
        case .outerGone:
            transform = nil
            outerValuesAreInners = false
            perform(state.outerWentAway(), failure: nil)
        case .innerGone(let id):
            perform(state.innerWentAway(id), failure: nil)
        case .inner(let id, .next(let value)):
            if state.forwardsValue(from: id) { sink.send(.next(value)) }
        case .inner(let id, .error(let failure)):
            perform(state.innerFailed(id), failure: failure)
        case .inner(let id, .completed):
            perform(state.innerCompleted(id), failure: nil)
        }
    }

    @inlinable
    func handleOuter(_ event: Event<OuterValue, Failure>) {
        if state.isFinished { return }
        switch event {
        case .next(let value):
            if outerValuesAreInners {
                // `OuterValue` is `Inner` (see `init`; the signal-of-signals forms take the outer source's events
                // through `handleOuterInner(_:)`, without the cast).
                outerSent(inner: value as! Inner)
            } else if let transform {
                outerSent(inner: transform(value))
            }
        case .error(let failure):
            perform(state.outerFailed(), failure: failure)
        case .completed:
            transform = nil
            outerValuesAreInners = false
            perform(state.outerCompleted(), failure: nil)
        }
    }

    /// The outer source sent `inner`, which this call only borrows: an inner subscribed at once (the common
    /// case, see ``FlattenStateMachine/outerSending()``) is started as it is — not copied into a
    /// ``FlattenAction`` and out again (a retain and a release of what it holds each time).
    @inlinable @inline(__always)
    func outerSent(inner: borrowing Inner) {
        switch state.outerSending() {
        case .ignore:
            return
        case .subscribe(let previous):
            previous?.dispose()
            startInner(inner)
            perform(state.didSubscribe(), failure: nil)
        case .handOver:
            perform(state.outerSent(copy inner), failure: nil)
        }
    }

    /// Does what the state machine decided; `failure` is the error of the event that caused a `.fail`.
    @inlinable @inline(__always)
    func perform(_ action: consuming FlattenAction<Inner, CompositeDisposable>, failure: Failure?) {
        // A loop rather than recursion: starting an inner can lead to starting the next (concat).
        // The action is consumed, not copied: copying it would retain the inner and the subscription.
        var next = action
        while true {
            switch consume next {
            case .none:
                return
            case .subscribe(let inner, let previous):
                previous?.dispose()
                startInner(inner)
                next = state.didSubscribe()
            case .complete:
                output.finish(.completed)
                return
            case .endQuietly:
                output.end()
                return
            case .fail:
                if let failure { output.finish(.error(failure)) } else { output.end() }
                return
            }
        }
    }

    /// The spare lifetime (moved out: no reference counting for the move), or a new one.
    @inlinable @inline(__always)
    func takeSpareLifetimeOrMakeOne() -> CompositeDisposable {
        if let spare = spareLifetime.take() { return spare }
        return CompositeDisposable(partOf: lifetime)
    }

    /// The spare link, for the inner `id`, or a new one.
    @inlinable @inline(__always)
    func takeSpareLinkOrMakeOne(id: UInt64) -> FlattenInnerLink<OuterValue, Inner, State> {
        if let spare = spareLink.take() {
            spare.id = id
            return spare
        }
        return FlattenInnerLink(self, id: id)
    }

    /// Subscribes to `inner` in a new child lifetime held by the state machine.
    @inlinable
    func startInner(_ inner: Inner) {
        if mailbox.closed.isSetRelaxed { return }
        // Constants until the start has returned, each the result of a call: a variable, or a constant set in
        // branches, was retained once more for the start, which borrows it.
        let child = takeSpareLifetimeOrMakeOne()
        let id = state.willSubscribe(child)
        let link = takeSpareLinkOrMakeOne(id: id)
        startingID = id
        inner.signal.start(Sink { [link] event in link.send(event) }, in: child)
        startingID = nil
        // Not once the mailbox is closed: `dispose()`, which drops the spares, may already have run, and the
        // inner's end is no news any more.
        if mailbox.closed.isSetRelaxed { return }
        // Tells the driver when the inner's subscription ends, so that one whose source goes away without a
        // terminal event (a released subject) does not keep the whole subscription alive. Only for an inner
        // still running: one that ended during its start (a synchronous cold signal, the common case) needs
        // no notice — its events were handled inline, or, sent on another thread, are queued — and its end is
        // news only when it ended without a terminal event, told behind the queued inputs. An inner that ends
        // between the check and the `add` runs the notice at once, on this thread (see `innerWentAway`).
        if child.isDisposed {
            if state.isLive(id) { postBehindQueued(.innerGone(id)) }
        } else {
            child.addUnchecked(link.endNotice)
        }
        // Nothing else references the link once the inner has ended during its start and dropped its sink:
        // no event and no end notice can come through it any more, so the next inner may take it over.
        // Likewise its lifetime, disposed and dropped by the state machine (with no child left).
        var endedLink = consume link
        if isKnownUniquelyReferenced(&endedLink) { spareLink = consume endedLink }
        var endedChild = consume child
        if isKnownUniquelyReferenced(&endedChild) && endedChild.renewIfFinished() {
            spareLifetime = consume endedChild
        }
    }
}

extension FlattenDriver where OuterValue == Inner {
    /// ``outerSent(_:to:for:)`` for the signal-of-signals forms (`flatten`, `switchToLatest`, `concat`), whose
    /// outer values are the inners: the inner is started from the event as it is, with no cast (which copies it).
    @inlinable
    static func outerSentInner(
        _ event: Event<Inner, Failure>, to mailbox: Mailbox<Input>, for driver: Unmanaged<FlattenDriver>
    ) {
        if mailbox.performIfIdle({ driver._withUnsafeGuaranteedRef { $0.handleOuterInner(event) } }) { return }
        post(.outer(event), to: mailbox, for: driver)
    }

    /// ``handleOuter(_:)`` for the signal-of-signals forms: what it does, with the value taken as the inner.
    @inlinable
    func handleOuterInner(_ event: Event<Inner, Failure>) {
        if case .next(let inner) = event {
            if !state.isFinished && outerValuesAreInners { outerSent(inner: inner) }
            return
        }
        handleOuter(event)
    }
}

/// Lets a ``FlattenDriver``'s mailbox handler reach the driver, which does not exist yet when the
/// mailbox is created. Written once, before anything is posted.
@usableFromInline
final class FlattenDriverBox<OuterValue, Inner: SignalConvertible, State: FlattenStateMachine>
where State.Inner == Inner, State.Subscription == CompositeDisposable {
    @usableFromInline var driver: FlattenDriver<OuterValue, Inner, State>?

    @inlinable
    init() {}
}
