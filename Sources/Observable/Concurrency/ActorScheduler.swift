import TetherEngine

/// A scheduler that runs its work isolated to an actor — ``main`` for the main actor.
///
/// Use it to deliver a signal's events where Swift's concurrency checker expects them: the closures
/// you write inside a `@MainActor` view model are main-actor isolated, but Tether calls a subscriber
/// on the thread that sends. `deliver(on: ActorScheduler.main)` runs them on the main actor.
///
/// Work runs one item at a time, in the order it was scheduled (a single task drains a queue on the
/// actor), interleaved with the actor's other jobs. Delayed and repeating work is timed on a
/// background Dispatch queue, then queued to the actor when due. Disposing an action that has not run
/// yet cancels it.
///
/// On Linux the main actor runs on the main dispatch queue, so like ``QueueScheduler/main`` it needs
/// the main thread to drive it: an `async` `main()` (the runtime calls `dispatchMain()` for you), a
/// `RunLoop.main` loop, or `dispatchMain()`; XCTest drives it while an async test awaits.
///
/// ```swift
/// @MainActor final class SearchViewModel {
///     private(set) var results: [String] = []
///     private var subscription: (any Disposable)?
///
///     init(query: Subject<String, Never>, search: @escaping @Sendable (String) -> [String]) {
///         subscription = query
///             .deliver(on: QueueScheduler(priority: .background))
///             .map(search)                           // off the main actor
///             .deliver(on: ActorScheduler.main)      // back on it
///             .subscribe(next: { [weak self] rows in self?.results = rows })
///     }
/// }
/// ```
public final class ActorScheduler: Scheduler {
    /// The scheduler for the main actor (`MainActor.shared`).
    ///
    /// ```swift
    /// let signal = Signal<Int, Never>(values: [1, 2, 3])
    /// signal.deliver(on: ActorScheduler.main).subscribe(next: { value in
    ///     MainActor.assumeIsolated { print("on the main actor:", value) }
    /// })
    /// ```
    public static let main = ActorScheduler(MainActor.shared)

    /// The actor this scheduler runs its work on.
    ///
    /// ```swift
    /// print(ActorScheduler.main.actor === MainActor.shared)   // true
    /// ```
    public let actor: any Actor

    private let queue: AsyncStream<ActorSchedulerJob>.Continuation

    /// Times delayed and repeating work before it is queued to the actor.
    private static let timers = QueueScheduler(priority: .high, name: "tether.actor-scheduler.timers")

    /// Creates a scheduler running its work on `actor`. The scheduler holds the actor until it is itself
    /// released.
    ///
    /// ```swift
    /// actor Store { /* … */ }
    /// let store = Store()
    /// let onStore = ActorScheduler(store)
    /// ```
    public init(_ actor: any Actor, priority: TaskPriority? = nil) {
        self.actor = actor
        let (jobs, queue) = AsyncStream.makeStream(of: ActorSchedulerJob.self)
        self.queue = queue
        Task(priority: priority) {
            await Self.drain(jobs, on: actor)
        }
    }

    deinit {
        queue.finish()
    }

    private static func drain(_ jobs: AsyncStream<ActorSchedulerJob>, on actor: isolated any Actor) async {
        for await job in jobs {
            if !job.cancel.isDisposed { job.action() }
        }
    }

    /// Monotonic time since boot (the clock of ``QueueScheduler``).
    ///
    /// ```swift
    /// let started = ActorScheduler.main.now
    /// ```
    public var now: Duration { monotonicNow() }

    /// Runs `action` on the actor after the work already scheduled, unless disposed first.
    ///
    /// ```swift
    /// ActorScheduler.main.schedule { MainActor.assertIsolated() }
    /// ```
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = AnyDisposable()
        queue.yield(makeJob(action, cancel: cancel))
        return cancel
    }

    /// Runs `action` on the actor once `delay` has passed, unless disposed first.
    ///
    /// ```swift
    /// ActorScheduler.main.schedule(after: .milliseconds(300)) { print("later, on the main actor") }
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = AnyDisposable()
        let job = makeJob(action, cancel: cancel)
        let queue = self.queue
        let timer = Self.timers.schedule(after: delay) { queue.yield(job) }
        return AnyDisposable {
            cancel.dispose()
            timer.dispose()
        }
    }

    /// Runs `action` on the actor after `delay`, then every `interval`, until disposed. A tick that
    /// comes while the actor is busy waits for it; ticks are not merged.
    ///
    /// ```swift
    /// let clock = ActorScheduler.main.schedule(after: .zero, interval: .seconds(1)) { print("tick") }
    /// // …
    /// clock.dispose()   // the ticks stop
    /// ```
    @discardableResult
    public func schedule(after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void)
        -> any Disposable
    {
        let cancel = AnyDisposable()
        let job = makeJob(action, cancel: cancel)
        let queue = self.queue
        let timer = Self.timers.schedule(after: delay, interval: interval) { queue.yield(job) }
        return AnyDisposable {
            cancel.dispose()
            timer.dispose()
        }
    }
}

/// One action queued to an ``ActorScheduler``, with its cancellation flag.
extension ActorScheduler {
    /// A job whose action runs with this scheduler as ``currentScheduler``. It holds the scheduler weakly,
    /// as the timers' closures do, so that pending work does not keep it alive.
    fileprivate func makeJob(_ action: @escaping @Sendable () -> Void, cancel: AnyDisposable) -> ActorSchedulerJob {
        ActorSchedulerJob(
            // Strong: a job waiting in the queue keeps its scheduler, as a dispatch queue keeps its blocks.
            // (A weak reference also put a side table on `ActorScheduler.main` that LeakSanitizer cannot
            // see through the tagged reference count, and reported as leaked.)
            action: { [self] in CurrentSchedulerSlot.run(action, as: self) }, cancel: cancel)
    }
}

struct ActorSchedulerJob: Sendable {
    let action: @Sendable () -> Void
    let cancel: AnyDisposable
}
