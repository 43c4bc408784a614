import TetherEngine
import TetherShims

/// How ``AsyncSignal`` buffers values that arrive while the consuming task is busy — the same three
/// policies as `AsyncStream.Continuation.BufferingPolicy`.
///
/// A signal pushes; an async loop pulls. Values sent while the loop body runs wait in a buffer until
/// the loop asks for the next one. Terminal events are never dropped: an error or the completion is
/// delivered after the buffered values, whatever the policy.
///
/// <!-- example: compile-only: the loop waits for the app to send progress, and nothing here does -->
/// ```swift
/// let progress = Subject<Int, Never>()
/// // A progress bar only cares about the latest figure:
/// for await percent in progress.values(bufferingPolicy: .bufferingNewest(1)) {
///     print("\(percent) %")
/// }
/// ```
public enum SignalBufferingPolicy: Sendable, Hashable {
    /// Keep every value (the default). Memory grows if the producer outpaces the consumer.
    case unbounded
    /// Keep at most this many values; when the buffer is full, *newer* values are dropped.
    case bufferingOldest(Int)
    /// Keep at most this many values; when the buffer is full, the *oldest* value is dropped.
    /// `bufferingNewest(0)` keeps nothing: only a value sent while the consumer waits is delivered.
    case bufferingNewest(Int)
}

extension SignalConvertible where Value: Sendable {
    /// The values of this signal as an `AsyncSequence`, for `for await` loops (unbounded buffer).
    ///
    /// Each iteration (each `makeAsyncIterator()`) is one subscription, started when the iterator is
    /// made. The loop receives every value in order; it ends when the signal completes, and rethrows
    /// when it fails — with the signal's own `Failure` type (typed throws), so a `Failure == Never`
    /// signal is iterated with plain `for await`, without `try`.
    ///
    /// Leaving the loop (`break`, `return`, a thrown error) or cancelling the task that runs it
    /// disposes the subscription; a loop whose task is cancelled ends quietly (`nil`), as `AsyncStream`
    /// does. Values sent while the loop body runs are buffered without limit: see
    /// ``values(bufferingPolicy:)`` to bound the buffer.
    ///
    /// A source that sends synchronously and forever (`Signal(values: 1...)`) never returns from
    /// being subscribed: limit it (`take(_:)`) before iterating.
    ///
    /// ```swift
    /// let names = Signal(values: ["Ann", "Bob"])
    /// for await name in names.values { print("hello,", name) }   // hello, Ann, hello, Bob
    /// print("no more names")                                    // no more names
    /// // (From a Subject, the loop sees only what is sent after its iterator is made: a Task that starts
    /// // iterating later misses the sends made before.)
    /// ```
    public var values: AsyncSignal<Value, Failure> {
        AsyncSignal(signal, bufferingPolicy: .unbounded)
    }

    /// The values of this signal as an `AsyncSequence` whose buffer follows `bufferingPolicy`.
    ///
    /// Same as ``values``, except for what happens to values sent while the consuming loop is busy:
    /// `.bufferingNewest(1)` keeps only the latest one (a "conflating" consumer), `.bufferingOldest(n)`
    /// keeps the first `n` and drops later ones until there is room.
    ///
    /// <!-- example: compile-only: the loop waits for the user to type, and nothing here does -->
    /// ```swift
    /// let searchText = Subject<String, Never>()
    /// for await query in searchText.values(bufferingPolicy: .bufferingNewest(1)) {
    ///     try await Task.sleep(for: .seconds(1))   // queries typed meanwhile collapse into the latest one
    ///     print("searching", query)
    /// }
    /// ```
    public func values(bufferingPolicy: SignalBufferingPolicy) -> AsyncSignal<Value, Failure> {
        AsyncSignal(signal, bufferingPolicy: bufferingPolicy)
    }
}

/// A signal's values as an `AsyncSequence` (made by ``SignalConvertible/values``).
///
/// Typed throws: iterating throws `Failure`, so a `Failure == Never` signal needs no `try`. Every
/// iterator is its own subscription; dropping the iterator, leaving the loop or cancelling the task
/// disposes it.
///
/// ```swift
/// enum ReadError: Error { case closed }
/// let lines = Signal<String, ReadError>(values: ["a", "b"])
/// do {
///     for try await line in lines.values { print(line) }   // a, b
/// } catch {
///     print("failed:", error)                              // (not reached here: error is a ReadError)
/// }
/// ```
public struct AsyncSignal<Value: Sendable, Failure: Error>: AsyncSequence {
    /// The values of the signal.
    public typealias Element = Value

    @usableFromInline let signal: Signal<Value, Failure>
    @usableFromInline let bufferingPolicy: SignalBufferingPolicy

    /// Wraps `signal` (see ``SignalConvertible/values(bufferingPolicy:)``).
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// let sequence = AsyncSignal(signal, bufferingPolicy: .unbounded)
    /// ```
    public init(_ signal: Signal<Value, Failure>, bufferingPolicy: SignalBufferingPolicy = .unbounded) {
        self.signal = signal
        self.bufferingPolicy = bufferingPolicy
    }

    /// Subscribes to the signal and returns an iterator over what it sends from now on.
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// var iterator = subject.values.makeAsyncIterator()   // subscribed here
    /// subject.send(1)
    /// await iterator.next()                               // 1
    /// ```
    public func makeAsyncIterator() -> AsyncIterator {
        let storage = AsyncSignalStorage<Value, Failure>(bufferingPolicy: bufferingPolicy)
        let lifetime = CompositeDisposable()
        storage.attach(lifetime)
        signal.start(Sink { storage.receive($0) }, in: lifetime)
        return AsyncIterator(handle: AsyncSignalHandle(storage))
    }

    /// Pulls the values of one subscription.
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// var iterator = signal.values.makeAsyncIterator()
    /// while let value = await iterator.next() { print(value) }
    /// ```
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: AsyncSignalHandle<Value, Failure>

        /// The next value; `nil` once the signal completed or the task was cancelled. Throws the
        /// signal's failure (once; `nil` after it).
        ///
        /// ```swift
        /// var iterator = Signal<Int, any Error>(values: [1, 2]).values.makeAsyncIterator()
        /// let first = try await iterator.next()
        /// ```
        public mutating func next() async throws(Failure) -> Value? {
            try await handle.storage.next(isolation: nil)
        }

        /// The next value, resuming on `actor` (the caller's isolation).
        ///
        /// ```swift
        /// var iterator = Signal<Int, any Error>(values: [1, 2]).values.makeAsyncIterator()
        /// let first = try await iterator.next(isolation: #isolation)
        /// ```
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            try await handle.storage.next(isolation: actor)
        }
    }
}

/// Disposes the subscription when the last copy of an iterator goes away.
///
/// The storage itself cannot do it in its `deinit`: the subscription's sink holds it until disposal.
final class AsyncSignalHandle<Value: Sendable, Failure: Error>: Sendable {
    let storage: AsyncSignalStorage<Value, Failure>

    init(_ storage: AsyncSignalStorage<Value, Failure>) {
        self.storage = storage
    }

    deinit {
        storage.cancel()
    }
}

/// The buffer between a subscription (which pushes) and an async iterator (which pulls).
///
/// The subscription's sink runs serialized on the producer's thread; `next` runs on the consuming task.
/// Both decide under `state`'s lock and act after it: continuations are resumed and the subscription is
/// disposed with no lock held.
///
/// A producer may resume the consumer's continuation before the consumer's task reached its `await`
/// (`waiting` is published from inside `withUnsafeContinuation`'s closure). The task then goes on at once,
/// and the concurrency runtime orders the two threads with atomics Thread Sanitizer does not see: unlike a
/// resumed task that runs as a job, this path performs no acquire for it. The resumer's reads of the
/// continuation's context would then look unordered with the task's next `withUnsafeContinuation`, which
/// reuses that memory. `next` supplies the acquire (`tether_tsan_acquire_current_task`, a no-op outside
/// Thread Sanitizer), matching the release the runtime performs on every resume.
final class AsyncSignalStorage<Value: Sendable, Failure: Error>: Sendable {
    private typealias Continuation = UnsafeContinuation<Result<Value?, Failure>, Never>

    /// What the producer and the consumer share, under a lock.
    private struct State: Sendable {
        /// Buffered values, oldest first.
        var buffer = FIFOBuffer<Value>()
        /// A terminal event that arrived while values were still buffered.
        var terminal: Result<Value?, Failure>?
        /// The consumer waiting for a value (only while the buffer is empty).
        var waiting: Continuation?
        /// The consumer will never receive more: terminal seen, cancelled or iterator dropped.
        var finished = false
        /// The subscription, until it is disposed here or it ends on its own.
        var lifetime: CompositeDisposable?
        /// The subscription to dispose once the cancelled consumer resumes (see `cancelFromHandler`).
        var pendingDisposal: CompositeDisposable?

        /// Buffers `value` as `policy` says.
        mutating func append(_ value: Value, policy: SignalBufferingPolicy) {
            switch policy {
            case .unbounded:
                buffer.append(value)
            case .bufferingOldest(let limit):
                if buffer.count < limit { buffer.append(value) }
            case .bufferingNewest(let limit):
                guard limit > 0 else { return }
                if buffer.count >= limit { _ = buffer.removeFirst() }
                buffer.append(value)
            }
        }

        /// The consumer will receive nothing more.
        mutating func end() {
            finished = true
            buffer = FIFOBuffer()
            terminal = nil
            lifetime = nil
        }

        /// What `next` can answer without waiting, or `nil` if it must wait.
        mutating func immediateResult() -> Result<Value?, Failure>? {
            if !buffer.isEmpty { return .success(buffer.removeFirst()) }
            if let terminal {
                end()
                return terminal
            }
            if finished { return .success(nil) }
            return nil
        }
    }

    private let policy: SignalBufferingPolicy
    private let state = LockedState(State())

    init(bufferingPolicy: SignalBufferingPolicy) {
        policy = bufferingPolicy
    }

    func attach(_ lifetime: CompositeDisposable) {
        state.withLock { $0.lifetime = lifetime }
    }

    /// The producer side: one event of the subscription.
    func receive(_ event: Event<Value, Failure>) {
        let result: Result<Value?, Failure>
        switch event {
        case .next(let value): result = .success(value)
        case .error(let failure): result = .failure(failure)
        case .completed: result = .success(nil)
        }
        let policy = policy
        let resumed = state.withLock { state -> Continuation? in
            if state.finished || state.terminal != nil { return nil }
            if let continuation = state.waiting {
                state.waiting = nil
                if event.isTerminal { state.end() }
                return continuation
            }
            if case .next(let value) = event {
                state.append(value, policy: policy)
            } else {
                state.terminal = result
            }
            return nil
        }
        resumed?.resume(returning: result)
    }

    /// The consumer side.
    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        if let ready = state.withLock({ $0.immediateResult() }) { return try ready.get() }
        let result = await withTaskCancellationHandler(
            operation: {
                let result = await withUnsafeContinuation(isolation: actor) { (continuation: Continuation) in
                    let ready = state.withLock { state -> Result<Value?, Failure>? in
                        if let ready = state.immediateResult() { return ready }
                        state.waiting = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
                // The resumer may have won the race with the `await`; see the type's comment.
                tether_tsan_acquire_current_task()
                return result
            },
            onCancel: { self.cancelFromHandler() },
            isolation: actor)
        disposePending()
        return try result.get()
    }

    /// Cancellation while `next` waits: ends the consumer's side and resumes it, but leaves disposing the
    /// subscription to `next` once it resumed. The handler runs while the runtime holds the task's status
    /// lock; disposing here would wait for a delivery in flight on another thread — and that delivery may be
    /// resuming this very task, which needs that lock.
    private func cancelFromHandler() {
        let continuation = state.withLock { state -> Continuation? in
            let continuation = state.waiting
            state.waiting = nil
            if let lifetime = state.lifetime { state.pendingDisposal = lifetime }
            state.end()
            return continuation
        }
        continuation?.resume(returning: .success(nil))
    }

    private func disposePending() {
        let subscription = state.withLock { state -> CompositeDisposable? in
            defer { state.pendingDisposal = nil }
            return state.pendingDisposal
        }
        subscription?.dispose()
    }

    /// Ends the consumer's side and disposes the subscription (cancellation, dropped iterator).
    func cancel() {
        let (continuation, subscription) = state.withLock { state -> (Continuation?, CompositeDisposable?) in
            if state.finished && state.lifetime == nil && state.waiting == nil && state.pendingDisposal == nil {
                return (nil, nil)
            }
            let taken = (state.waiting, state.lifetime ?? state.pendingDisposal)
            state.waiting = nil
            state.pendingDisposal = nil
            state.end()
            return taken
        }
        continuation?.resume(returning: .success(nil))
        subscription?.dispose()
    }
}
