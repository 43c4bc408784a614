// Overloads for RAC idioms that mix a signal that can fail with one that cannot. RAC had one error type,
// so `[requestAccess then:^{ return searchText; }]` needed no conversion; with typed failures the
// `Never` side is promoted here (``SignalConvertible/promoteError(_:)``), so the natural spelling
// compiles without it. The overloads are disfavored: when both sides are `Never`, the same-failure form
// applies, without a conversion stage.

extension SignalConvertible {
    /// `then(_:)` for a next signal that cannot fail: its values follow this signal's completion, and
    /// the result fails only with this signal's errors.
    ///
    /// ```swift
    /// enum AccessError: Error { case denied }
    /// let requestAccess = Signal<Void, AccessError>.empty
    /// let searchText = MutableProperty("")
    /// // The ReactiveCocoa tutorials' live search: once access is granted, the search text.
    /// requestAccess.then { searchText }.subscribe(next: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(
        _ next: @escaping @Sendable () -> Next
    ) -> Signal<Next.Value, Failure> where Next.Failure == Never {
        uncheckedThen { next().promoteError(Failure.self) }
    }

    /// `then(_:)` taking the next signal itself, when it cannot fail: the result fails only with this
    /// signal's errors.
    ///
    /// ```swift
    /// enum AccessError: Error { case denied }
    /// let requestAccess = Signal<Void, AccessError>.empty
    /// let searchText = Subject<String, Never>()
    /// requestAccess.then(searchText).subscribe(next: { print("search for", $0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(_ next: Next) -> Signal<Next.Value, Failure>
    where Next.Failure == Never {
        then(next.promoteError(Failure.self))
    }

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

    /// `catch(_:)` with a replacement that cannot fail, so that `catch { _ in .empty }` and
    /// `catch { _ in Signal(value: fallback) }` compile as written in RAC (`catch:` returning
    /// `[RACSignal empty]`): the result cannot fail.
    ///
    /// ```swift
    /// enum LoadError: Error { case offline }
    /// let load = Signal<String, LoadError>(error: .offline)
    /// load.catch { _ in .empty }.subscribe(completed: { print("done, quietly") })
    /// load.catch { _ in Signal(value: "fallback") }.subscribe(next: { print($0) })
    /// ```
    @inlinable
    public func `catch`(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, Never>
    ) -> Signal<Value, Never> {
        catchReplacing(handler)
    }

    /// The generic `catch(_:)`, reached from a context where only it applies.
    @inlinable
    func catchReplacing<Replacement: SignalConvertible>(
        _ handler: @escaping @Sendable (Failure) -> Replacement
    ) -> Signal<Value, Replacement.Failure> where Replacement.Value == Value {
        self.catch(handler)
    }
}

extension SignalConvertible where Failure == Never {
    /// `then(_:)` from a signal that cannot fail to one that can: the result fails with the next
    /// signal's errors.
    ///
    /// ```swift
    /// enum SaveError: Error { case diskFull }
    /// let confirmed = Signal<Void, Never>.empty
    /// confirmed.then { Signal<String, SaveError>(value: "saved") }.subscribe(next: { print($0) }, error: { print($0) })
    /// ```
    @_disfavoredOverload
    @inlinable
    public func then<Next: SignalConvertible>(
        _ next: @escaping @Sendable () -> Next
    ) -> Signal<Next.Value, Next.Failure> {
        promoteError(Next.Failure.self).then(next)
    }

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

    /// `timeout(after:raising:on:)` for a signal that cannot fail: the result fails with `error`
    /// when nothing ended the signal within `interval` (RAC's `timeout:onScheduler:`).
    ///
    /// ```swift
    /// enum WaitError: Error { case timedOut }
    /// let scheduler = TestScheduler()
    /// let reply = Subject<String, Never>()
    /// reply.timeout(after: .seconds(5), raising: WaitError.timedOut, on: scheduler)
    ///     .subscribe(error: { print($0) })
    /// scheduler.advance(by: .seconds(5))   // timedOut
    /// ```
    @inlinable
    public func timeout<S: Scheduler, NewFailure: Error>(
        after interval: Duration, raising error: NewFailure, on scheduler: S
    ) -> Signal<Value, NewFailure> {
        promoteError(NewFailure.self).timeout(after: interval, raising: error, on: scheduler)
    }
}
