import TetherEngine

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
    /// let fetchUser: @Sendable (Int) -> Signal<String, Never> = { id in Signal(value: "user \(id)") }
    /// let userIDs = Signal<Int, Never>(values: [1, 2])
    /// userIDs.flatMap { id in fetchUser(id) }   // every user, in arrival order
    /// ```
    /// Marble: source `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1--23-4-|`
    @inlinable
    public func flatMap<Inner: SignalConvertible>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(MergeState<Inner, CompositeDisposable>.self, transform)
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
    /// let search: @Sendable (String) -> Signal<[String], SearchError> = { text in Signal(value: [text]) }
    /// searchText.promoteError(SearchError.self).flatMapLatest { text in search(text) }
    /// ```
    /// Marble: source `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1---3-4-|`
    @inlinable
    public func flatMapLatest<Inner: SignalConvertible>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(SwitchToLatestState<Inner, CompositeDisposable>.self, transform)
    }

    /// Maps each value to a signal and sends the events of those signals one after the other:
    /// an inner signal is subscribed only after the previous one completed (RAC's `flattenMap:`
    /// + `concat`).
    ///
    /// The result completes when the source and every queued inner signal have completed. Any
    /// error fails the result and drops the queue.
    ///
    /// ```swift
    /// let upload: @Sendable (String) -> Signal<Int, Never> = { _ in Signal(values: [50, 100]) }
    /// let uploads = Signal<String, Never>(values: ["a.txt", "b.txt"])
    /// uploads.concatMap { file in upload(file) }   // one upload at a time, in order
    /// ```
    /// Marble: source `-a-b------|`, a `-1--2|`, b `-3-4|` → `--1--2-3-4|`
    @inlinable
    public func concatMap<Inner: SignalConvertible>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Failure {
        flattened(ConcatState<Inner, CompositeDisposable>.self, transform)
    }

    @inlinable
    func flattened<Inner: SignalConvertible, State: FlattenStateMachine>(
        _ strategy: State.Type, _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Failure>
    where Inner.Failure == Failure, State.Inner == Inner, State.Subscription == CompositeDisposable {
        flattened(strategy, transformOrNil: transform)
    }

    /// `transform` `nil`: the values are the inner signals (`Value` is `Inner`; see ``flattenedValues(_:)``),
    /// taken as they are, with no call to an identity closure per value.
    @inlinable
    func flattened<Inner: SignalConvertible, State: FlattenStateMachine>(
        _ strategy: State.Type, transformOrNil transform: ((Value) -> Inner)?
    ) -> Signal<Inner.Value, Failure>
    where Inner.Failure == Failure, State.Inner == Inner, State.Subscription == CompositeDisposable {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let driver = FlattenDriver<Value, Inner, State>(sink: sink, lifetime: lifetime, transform: transform)
            let mailbox = driver.mailbox
            let unretainedDriver = Unmanaged.passUnretained(driver)
            let outerLifetime = CompositeDisposable(partOf: lifetime)
            guard let outerKey = lifetime.add(outerLifetime) else { return }
            // The outer source's subscription ended; without a terminal event (e.g. its subject was
            // released), the live inners finish and the subscription then ends quietly.
            outerLifetime.addUnchecked(driver.outerEndNotice)
            upstream.start(
                Sink { event in
                    if event.isTerminal { lifetime.remove(outerKey) }
                    FlattenDriver.outerSent(event, to: mailbox, for: unretainedDriver)
                }, in: outerLifetime)
        })
    }
}

extension SignalConvertible where Value: SignalConvertible, Value.Failure == Failure {
    /// The signal-of-signals form of ``flattened(_:_:)``: the values are the inner signals.
    @inlinable
    func flattenedValues<State: FlattenStateMachine>(_ strategy: State.Type) -> Signal<Value.Value, Failure>
    where State.Inner == Value, State.Subscription == CompositeDisposable {
        // `flattened(_:transformOrNil:)` with the outer events taken through `FlattenDriver.outerSentInner`.
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            let driver = FlattenDriver<Value, Value, State>(sink: sink, lifetime: lifetime, transform: nil)
            let mailbox = driver.mailbox
            let unretainedDriver = Unmanaged.passUnretained(driver)
            let outerLifetime = CompositeDisposable(partOf: lifetime)
            guard let outerKey = lifetime.add(outerLifetime) else { return }
            outerLifetime.addUnchecked(driver.outerEndNotice)
            upstream.start(
                Sink { event in
                    if event.isTerminal { lifetime.remove(outerKey) }
                    FlattenDriver.outerSentInner(event, to: mailbox, for: unretainedDriver)
                }, in: outerLifetime)
        })
    }

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
        flattenedValues(MergeState<Value, CompositeDisposable>.self)
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
    /// pages.switchToLatest().subscribe(next: { print($0) })   // (only the latest page load is shown)
    /// ```
    /// Marble: outer `-a---b----|`, a `-1--2|`, b `-3-4|` → `--1---3-4-|`
    @inlinable
    public func switchToLatest() -> Signal<Value.Value, Failure> {
        flattenedValues(SwitchToLatestState<Value, CompositeDisposable>.self)
    }

    /// Sends the events of the signals this signal sends, one signal after the other: each inner
    /// signal is subscribed after the previous one completed (RAC's `concat`).
    ///
    /// The result completes when this signal and every inner signal have completed; any error
    /// fails it and disposes the rest.
    ///
    /// ```swift
    /// Signal(values: [Signal(values: [1, 2]), Signal(values: [3])]).concat()
    ///     .subscribe(next: { print($0) })   // 1, 2, 3
    /// ```
    /// Marble: outer `-a-b------|`, a `-1--2|`, b `-3-4|` → `--1--2-3-4|`
    @inlinable
    public func concat() -> Signal<Value.Value, Failure> {
        flattenedValues(ConcatState<Value, CompositeDisposable>.self)
    }
}

extension SignalConvertible {
    /// `flatMap(_:)` for inner signals that cannot fail: the result fails only with this signal's
    /// errors.
    ///
    /// ```swift
    /// enum LoadError: Error { case offline }
    /// let pages = Subject<Int, LoadError>()
    /// let cache = MutableProperty("cached")
    /// pages.flatMap { _ in cache }.subscribe(next: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func flatMap<Inner: SignalConvertible>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Failure> where Inner.Failure == Never {
        flattened(MergeState<Signal<Inner.Value, Failure>, CompositeDisposable>.self) {
            transform($0).promoteError(Failure.self)
        }
    }
}

extension SignalConvertible where Failure == Never {
    /// `flatMap(_:)` from a signal that cannot fail to inner signals that can: the result fails with
    /// the inner signals' errors.
    ///
    /// ```swift
    /// enum SearchError: Error { case offline }
    /// let search: @Sendable (String) -> Signal<[String], SearchError> = { text in Signal(value: [text]) }
    /// let query = MutableProperty("rac")
    /// query.flatMap { search($0) }.subscribe(next: { print($0) }, error: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func flatMap<Inner: SignalConvertible>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Inner.Failure> {
        promoteError(Inner.Failure.self).flatMap(transform)
    }
}
