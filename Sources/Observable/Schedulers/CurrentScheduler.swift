import TetherEngine
import TetherShims

/// The scheduler running the calling code (RAC's `+[RACScheduler currentScheduler]`), or `nil`.
///
/// Inside work that a ``QueueScheduler``, a ``TestScheduler`` or an ``ActorScheduler`` runs, this is that
/// scheduler (the innermost one, if work of one scheduler runs work of another synchronously). Outside
/// such work, it is ``QueueScheduler/main`` on the main queue — on Linux, that is the main thread before
/// `dispatchMain()`, and the main queue's worker thread after it (see "The main queue on Linux" in
/// ``QueueScheduler``) — and `nil` anywhere else: on a thread of your own, or on a plain Dispatch queue.
/// As in RAC, ``ImmediateScheduler`` does not change it: its work runs where the caller already was.
///
/// ```swift
/// let work = QueueScheduler(name: "work")
/// work.schedule {
///     // Schedule the next step on whatever scheduler runs this one.
///     currentScheduler?.schedule { print("next step, on the same queue") }
/// }
/// ```
public var currentScheduler: (any Scheduler)? {
    if let raw = tether_current_scheduler() {
        return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? any Scheduler
    }
    return QueueScheduler.main.isCurrent ? QueueScheduler.main : nil
}

/// The thread-local slot behind ``currentScheduler`` (`tether_current_scheduler`, TetherShims): the
/// scheduler whose work the thread is running.
enum CurrentSchedulerSlot {
    /// Runs `action` with `scheduler` as the thread's current scheduler, then restores the previous one
    /// (threads of a Dispatch pool run unrelated work next: nothing may stay behind). The slot holds no
    /// reference: the caller keeps `scheduler` alive while `action` runs.
    static func run(_ action: () -> Void, as scheduler: any Scheduler) {
        let previous = tether_current_scheduler()
        tether_set_current_scheduler(Unmanaged.passUnretained(scheduler as AnyObject).toOpaque())
        defer { tether_set_current_scheduler(previous) }
        withExtendedLifetime(scheduler) { action() }
    }
}
