import TetherEngine

extension Signal {
    /// A signal that iterates `sequence` in a task and sends its elements, then completes — or fails
    /// with the sequence's error (typed: `S.Failure` becomes the signal's `Failure`).
    ///
    /// Each subscription starts its own `Task` (with `priority`) that makes an iterator of `sequence`;
    /// disposing the subscription cancels that task, and nothing is delivered after `dispose()`
    /// returns. Values are sent from the task, on the concurrency runtime's threads: add
    /// ``SignalConvertible/deliver(on:)`` to move them (for example to ``ActorScheduler/main``).
    ///
    /// Every subscription iterates `sequence` anew. A single-pass sequence such as `AsyncStream`
    /// allows one iterator only: subscribe once, or share one subscription with
    /// ``SignalConvertible/publish()`` or ``SignalConvertible/replayLazily()``.
    ///
    /// <!-- example: output-unchecked: a task reads the stream, so the values arrive after yield returns -->
    /// ```swift
    /// let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    /// Signal(stream)                                  // Signal<Int, Never>
    ///     .map { $0 * 10 }
    ///     .subscribe(next: { print($0) }, completed: { print("done") })
    /// continuation.yield(1)                           // prints 10
    /// continuation.finish()                           // done
    /// ```
    /// Marble: the sequence's elements `1 2 3 end` → `-1-2-3-|`; a sequence that throws `x` → `-1-x`.
    public init<S: AsyncSequence & Sendable>(_ sequence: S, priority: TaskPriority? = nil)
    where S.Element == Value, S.Failure == Failure {
        self.init { observer in
            let task = Task(priority: priority) {
                do throws(Failure) {
                    var iterator = sequence.makeAsyncIterator()
                    while let value = try await iterator.next(isolation: nil) {
                        if observer.isDisposed { return }
                        observer.send(value)
                    }
                    observer.sendCompleted()
                } catch {
                    observer.sendError(error)
                }
            }
            return AnyDisposable { task.cancel() }
        }
    }

    /// A signal that runs an async function in a task for each subscription, sends its result, then
    /// completes — or fails with what it throws (typed throws: `Failure` is the function's error type).
    ///
    /// Write the signal's type at the call site: `Signal<Profile, any Error> { try await fetch() }`,
    /// `Signal<Int, Never> { await count() }`, `Signal<Int, MyError> { () async throws(MyError) in … }`.
    /// A bare `Signal { … }` is also a valid call of `Signal(value:)` — a signal whose one value is
    /// the closure itself — and Swift picks that one.
    ///
    /// Disposing the subscription cancels the task (the function sees `Task.isCancelled`, and
    /// `Task.sleep` or `URLSession` calls inside it throw `CancellationError`); nothing is delivered
    /// after `dispose()` returns. The result is sent from the task: add
    /// ``SignalConvertible/deliver(on:)`` to move it.
    ///
    /// ```swift
    /// struct Profile: Sendable { var name: String }
    /// @Sendable func fetchProfile(_ id: Int) async throws -> Profile { Profile(name: "Ann") }
    ///
    /// let profile = Signal<Profile, any Error> { try await fetchProfile(42) }
    /// let subscription = profile
    ///     .deliver(on: ActorScheduler.main)
    ///     .subscribe(next: { print($0.name) }, error: { print("failed:", $0) })
    /// subscription.dispose()                                 // cancels the request
    /// ```
    /// Marble (one value when the function returns): `----(v|)`; when it throws `x`: `----x`.
    public init(priority: TaskPriority? = nil, _ operation: @escaping @Sendable () async throws(Failure) -> Value) {
        self.init { observer in
            let task = Task(priority: priority) {
                do throws(Failure) {
                    let value = try await operation()
                    observer.send(value)
                    observer.sendCompleted()
                } catch {
                    observer.sendError(error)
                }
            }
            return AnyDisposable { task.cancel() }
        }
    }
}
