import Synchronization

extension SignalConvertible {
    /// Maps each value to a signal and merges the events of all those signals (RAC's
    /// `flattenMap:`).
    ///
    /// Every inner signal is subscribed as soon as its value arrives; their values are sent as they
    /// come, serialized even when inners send on several threads. The result completes when the
    /// source and every inner signal have completed. Any error — from the source or an inner
    /// signal — fails the result and disposes everything else.
    ///
    /// The inner signals must have the source's failure type (see ``promoteError(_:)`` and
    /// ``mapError(_:)``).
    ///
    /// ```swift
    /// func fetchUser(_ id: Int) -> Signal<String, Never> { Signal(value: "user \(id)") }
    /// let userIDs = Signal<Int, Never>(values: [1, 2])
    /// userIDs.flatMap { id in fetchUser(id) }   // every user, in arrival order
    /// ```
    /// Marble: source `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1--23-4-|`
    @inlinable
    public func flatMap<Inner: SignalConvertible>(
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(.merge, transform)
    }

    /// Maps each value to a signal and sends the events of the latest one only: a new value
    /// disposes the previous inner signal (RAC's `flattenMap:` + `switchToLatest`).
    ///
    /// A value of a replaced inner signal is never sent. The result completes when the source
    /// has completed and the current inner signal (if any) has completed. Any error — from the
    /// source or the current inner signal — fails the result.
    ///
    /// ```swift
    /// enum SearchError: Error { case offline }
    /// let searchText = Subject<String, Never>()
    /// func search(_ text: String) -> Signal<[String], SearchError> { Signal(value: [text]) }
    /// searchText.promoteError(SearchError.self).flatMapLatest { text in search(text) }
    /// ```
    /// Marble: source `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1---3-4-|`
    @inlinable
    public func flatMapLatest<Inner: SignalConvertible>(
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(.latest, transform)
    }

    /// Maps each value to a signal and sends the events of those signals one after the other:
    /// an inner signal is subscribed only after the previous one completed (RAC's `flattenMap:`
    /// + `concat`).
    ///
    /// The result completes when the source and every queued inner signal have completed. Any
    /// error fails the result and drops the queue.
    ///
    /// ```swift
    /// func upload(_ file: String) -> Signal<Int, Never> { Signal(values: [50, 100]) }
    /// let uploads = Signal<String, Never>(values: ["a.txt", "b.txt"])
    /// uploads.concatMap { file in upload(file) }   // one upload at a time, in order
    /// ```
    /// Marble: source `-a-b------|`, a `-1--2|`, b `-3-4|` → `--1--2-3-4|`
    @inlinable
    public func concatMap<Inner: SignalConvertible>(
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(.concat, transform)
    }

    @inlinable
    func flattened<Inner: SignalConvertible>(
        _ strategy: FlattenStrategy, _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let coordinator = FlattenCoordinator<Value, Inner>(
                strategy: strategy, sink: sink, lifetime: lifetime, transform: transform)
            let mailbox = coordinator.mailbox
            let outerLifetime = CompositeDisposable(partOf: lifetime)
            guard let outerKey = lifetime.add(outerLifetime) else { return }
            // The outer source's subscription ended; without a terminal event (e.g. its subject was
            // released), the live inners finish and the subscription then ends quietly.
            outerLifetime.add(FlattenEndNotice(coordinator, inner: nil))
            upstream.start(
                Sink { event in
                    if event.isTerminal { lifetime.remove(outerKey) }
                    mailbox.post(.outer(event))
                }, in: outerLifetime)
        })
    }
}

extension SignalConvertible where Value: SignalConvertible, Value.Failure == Failure {
    /// Merges the events of the signals this signal sends (RAC's `flatten`).
    ///
    /// Each inner signal is subscribed when it arrives. The result completes when this signal and
    /// every inner signal have completed; any error fails it and disposes the rest.
    ///
    /// ```swift
    /// let requests = Subject<Signal<Int, Never>, Never>()
    /// requests.flatten().subscribe(next: { print($0) })
    /// ```
    /// Marble: outer `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1--23-4-|`
    @inlinable
    public func flatten() -> Signal<Value.Value, Failure> {
        flattened(.merge) { $0 }
    }

    /// Sends the events of the latest signal this signal sent; a new inner signal disposes the
    /// previous one, whose values are never sent again (RAC's `switchToLatest`).
    ///
    /// The result completes when this signal has completed and the current inner signal (if any)
    /// has completed; any error fails it and disposes the rest.
    ///
    /// ```swift
    /// enum LoadError: Error { case offline }
    /// let pages = Subject<Signal<String, LoadError>, LoadError>()
    /// pages.switchToLatest().subscribe(next: { print($0) })   // only the latest page load is shown
    /// ```
    /// Marble: outer `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1---3-4-|`
    @inlinable
    public func switchToLatest() -> Signal<Value.Value, Failure> {
        flattened(.latest) { $0 }
    }

    /// Sends the events of the signals this signal sends, one signal after the other: each inner
    /// signal is subscribed after the previous one completed (RAC's `concat`).
    ///
    /// The result completes when this signal and every inner signal have completed; any error
    /// fails it and disposes the rest.
    ///
    /// ```swift
    /// Signal(values: [Signal(values: [1, 2]), Signal(values: [3])]).concat()   // 1, 2, 3
    /// ```
    /// Marble: outer `-a-b------|`, a `-1--2|`, b `-3-4|` → `--1--2-3-4|`
    @inlinable
    public func concat() -> Signal<Value.Value, Failure> {
        flattened(.concat) { $0 }
    }
}

/// How ``FlattenCoordinator`` combines its inner signals.
@usableFromInline
enum FlattenStrategy: Sendable {
    /// All inner signals at once (`flatMap`, `flatten`).
    case merge
    /// One inner signal at a time, in order; later ones wait in a queue (`concatMap`, `concat`).
    case concat
    /// Only the latest inner signal; a new one disposes the previous one (`switchToLatest`).
    case latest
}

/// The state of one subscription to `flatMap`, `flatMapLatest`, `concatMap` and their
/// signal-of-signals forms.
///
/// Every input — outer events and inner events — goes through one ``Mailbox``, so the state below
/// is only touched by the mailbox's current owner and needs no lock.
///
/// Inner signals are started from inside the handler, each in a child lifetime that the
/// coordinator holds (not the subscription's lifetime, so starting and finishing an inner signal
/// takes no lock). The coordinator is registered in the subscription's lifetime right after the
/// mailbox: when the lifetime is disposed, the mailbox is closed first — which waits for a handler
/// running on another thread — and only then does the coordinator dispose the inner lifetimes.
///
/// The events an inner signal sends synchronously while it is being started are handled inline,
/// at once, rather than queued behind the start: this keeps them cheap and lets a synchronous
/// infinite inner signal be cut off by a downstream `take`. Everything else is posted to the
/// mailbox. The state is consistent whenever an inner signal is started, so the inline handling is
/// safe. For `concat`, an inner completing inline does not start the next one recursively: the
/// loop in ``startQueued()`` does, once the start returns, so the stack does not grow with the
/// number of inner signals.
@usableFromInline
final class FlattenCoordinator<OuterValue, Inner: SignalConvertible>: Disposable, @unchecked Sendable {
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

    @usableFromInline let strategy: FlattenStrategy
    @usableFromInline let sink: Sink<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable
    /// Released once the outer source has ended: what it captured (often the inners' subjects) must not
    /// keep the last inners — and so the subscription — alive.
    @exclusivity(unchecked) @usableFromInline var transform: ((OuterValue) -> Inner)?
    @usableFromInline let mailbox: Mailbox<Input>
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)

    /// The result has sent its terminal event.
    @exclusivity(unchecked) @usableFromInline var done = false
    @exclusivity(unchecked) @usableFromInline var outerCompleted = false
    /// The outer source, or (merge) an inner, went away without a terminal event: the result can never
    /// complete, so it finishes without sending `.completed`.
    @exclusivity(unchecked) @usableFromInline var endsQuietly = false
    /// (latest) The current inner went away without a terminal event.
    @exclusivity(unchecked) @usableFromInline var currentEndedQuietly = false
    @exclusivity(unchecked) @usableFromInline var nextID: UInt64 = 0
    /// `merge`: the lifetimes of the inner signals that have not finished.
    @exclusivity(unchecked) @usableFromInline var active: [UInt64: CompositeDisposable] = [:]
    /// `latest` and `concat`: the inner signal whose events are forwarded, and its lifetime.
    @exclusivity(unchecked) @usableFromInline var currentID: UInt64?
    @exclusivity(unchecked) @usableFromInline var currentLifetime: CompositeDisposable?
    /// `concat`: inner signals waiting for their turn, from `queueHead` on.
    @exclusivity(unchecked) @usableFromInline var queue: [Inner] = []
    @exclusivity(unchecked) @usableFromInline var queueHead = 0
    @exclusivity(unchecked) @usableFromInline var startingQueued = false
    /// The inner signal being started right now (its synchronous events are handled inline).
    @exclusivity(unchecked) @usableFromInline var startingID: UInt64?

    @inlinable
    init(
        strategy: FlattenStrategy, sink: Sink<Value, Failure>, lifetime: CompositeDisposable,
        transform: @escaping (OuterValue) -> Inner
    ) {
        self.strategy = strategy
        self.sink = sink
        self.lifetime = lifetime
        self.transform = transform
        // The handler reaches the coordinator through a box filled in below (the mailbox is a
        // constant of the coordinator, created before `self` is available). The cycle
        // coordinator → mailbox → handler → box → coordinator ends when the lifetime is disposed:
        // the mailbox then drops its handler.
        let box = FlattenCoordinatorBox<OuterValue, Inner>()
        self.mailbox = Mailbox(lifetime: lifetime) { input in box.coordinator?.handle(input) }
        box.coordinator = self
        lifetime.add(self)
    }

    @usableFromInline var isDisposed: Bool { mailbox.isDisposed }

    /// Disposes the inner signals' lifetimes. Runs after the mailbox was closed (it is registered
    /// in the subscription's lifetime after it), so no handler runs concurrently.
    @usableFromInline
    func dispose() {
        let lifetimes = active
        let current = currentLifetime
        active = [:]
        currentLifetime = nil
        currentID = nil
        transform = nil
        queue = []
        queueHead = 0
        current?.dispose()
        for child in lifetimes.values { child.dispose() }
    }

    /// Posts `.outerGone`.
    @inlinable
    func outerWentAway() {
        mailbox.post(.outerGone)
    }

    /// Posts `.innerGone(id)`.
    @inlinable
    func innerWentAway(_ id: UInt64) {
        mailbox.post(.innerGone(id))
    }

    @inlinable
    func handle(_ input: Input) {
        if done { return }
        switch input {
        case .outer(.next(let value)):
            guard let transform else { return }
            let inner = transform(value)
            switch strategy {
            case .merge:
                startInner(inner)
            case .latest:
                if let previous = currentLifetime {
                    currentID = nil
                    currentLifetime = nil
                    previous.dispose()
                }
                startInner(inner)
            case .concat:
                queue.append(inner)
                startQueued()
            }
        case .outer(.error(let failure)):
            fail(failure)
        case .outer(.completed):
            outerCompleted = true
            transform = nil
            completeIfFinished()
        case .outerGone:
            if outerCompleted { return }
            outerCompleted = true
            transform = nil
            endsQuietly = true
            completeIfFinished()
        case .innerGone(let id):
            // After the inner's terminal event (or its replacement) this is no news.
            switch strategy {
            case .merge:
                guard active.removeValue(forKey: id) != nil else { return }
                endsQuietly = true
                completeIfFinished()
            case .latest:
                guard id == currentID else { return }
                currentID = nil
                currentLifetime = nil
                currentEndedQuietly = true
                completeIfFinished()
            case .concat:
                // The queued inners would wait for its completion forever: nothing more can be sent.
                guard id == currentID else { return }
                done = true
                lifetime.dispose()
            }
        case .inner(let id, .next(let value)):
            if strategy != .merge && id != currentID { return }
            sink.send(.next(value))
        case .inner(let id, .error(let failure)):
            if strategy != .merge && id != currentID { return }
            fail(failure)
        case .inner(let id, .completed):
            switch strategy {
            case .merge:
                active[id] = nil
                completeIfFinished()
            case .latest:
                guard id == currentID else { return }
                currentID = nil
                currentLifetime = nil
                completeIfFinished()
            case .concat:
                guard id == currentID else { return }
                currentID = nil
                currentLifetime = nil
                if queueHead < queue.count {
                    startQueued()
                } else {
                    completeIfFinished()
                }
            }
        }
    }

    @inlinable
    func fail(_ failure: Failure) {
        done = true
        sink.send(.error(failure))
        lifetime.dispose()
    }

    @inlinable
    func completeIfFinished() {
        guard outerCompleted && !done else { return }
        switch strategy {
        case .merge: if !active.isEmpty { return }
        case .latest: if currentID != nil { return }
        case .concat: if currentID != nil || queueHead < queue.count { return }
        }
        done = true
        if !endsQuietly && !(strategy == .latest && currentEndedQuietly) { sink.send(.completed) }
        lifetime.dispose()
    }

    /// `concat`: starts queued inner signals while none is running. Called again while an inner
    /// signal is being started (it completed inline), it returns and lets the running loop go on.
    @inlinable
    func startQueued() {
        if startingQueued { return }
        startingQueued = true
        while !done && currentID == nil && queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            } else if queueHead >= 32 && queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            startInner(next)
        }
        startingQueued = false
        completeIfFinished()
    }

    /// Subscribes to `inner` in a new child lifetime held by the coordinator.
    @inlinable
    func startInner(_ inner: Inner) {
        if mailbox.closed.load(ordering: .relaxed) { return }
        let id = nextID
        nextID &+= 1
        let child = CompositeDisposable(partOf: lifetime)
        switch strategy {
        case .merge:
            active[id] = child
        case .latest, .concat:
            currentID = id
            currentLifetime = child
            currentEndedQuietly = false
        }
        // Tells the coordinator when the inner's subscription ends, so that one whose source went away
        // without a terminal event (a released subject) does not keep the whole subscription alive.
        child.add(FlattenEndNotice(self, inner: id))
        startingID = id
        inner.signal.start(
            Sink { event in
                if self.mailbox.isOwnedByCurrentThread && self.startingID == id {
                    // Sent synchronously while starting: handle it inline (see the type's notes).
                    if self.mailbox.closed.load(ordering: .relaxed) {
                        // Disposed from another thread, which waits for this handler: stop the source.
                        self.disposeStartingInner(id)
                        return
                    }
                    self.handle(.inner(id, event))
                } else {
                    self.mailbox.post(.inner(id, event))
                }
            }, in: child)
        startingID = nil
    }

    /// Disposes the lifetime of the inner signal being started (rare: see `startInner`).
    @usableFromInline
    func disposeStartingInner(_ id: UInt64) {
        switch strategy {
        case .merge: active[id]?.dispose()
        case .latest, .concat: if currentID == id { currentLifetime?.dispose() }
        }
    }
}

/// Lets a ``FlattenCoordinator``'s mailbox handler reach the coordinator, which does not exist yet
/// when the mailbox is created. Written once, before anything is posted.
@usableFromInline
final class FlattenCoordinatorBox<OuterValue, Inner: SignalConvertible> {
    @usableFromInline var coordinator: FlattenCoordinator<OuterValue, Inner>?

    @inlinable
    init() {}
}

/// Tells a ``FlattenCoordinator`` that the outer source's (`inner == nil`) or an inner signal's
/// subscription ended. A `Disposable` rather than a closure: a closure would capture `Inner`'s metatype,
/// which is not `Sendable`.
@usableFromInline
final class FlattenEndNotice<OuterValue, Inner: SignalConvertible>: Disposable, @unchecked Sendable {
    // Safety: immutable; the coordinator is thread-safe to post into.
    @usableFromInline let coordinator: FlattenCoordinator<OuterValue, Inner>
    @usableFromInline let inner: UInt64?

    @inlinable
    init(_ coordinator: FlattenCoordinator<OuterValue, Inner>, inner: UInt64?) {
        self.coordinator = coordinator
        self.inner = inner
    }

    @usableFromInline var isDisposed: Bool { coordinator.isDisposed }

    @inlinable
    func dispose() {
        if let inner {
            coordinator.innerWentAway(inner)
        } else {
            coordinator.outerWentAway()
        }
    }
}
