import Synchronization
import TetherShims

/// How many threads are running a body under ``DeferredSubmissionWatch/watch(_:)`` right now.
///
/// A gate that leaves a submission for later checks it with one relaxed load, and only looks up the
/// thread-local watch when it is non-zero.
@usableFromInline
let deferredSubmissionWatchers = RelaxedCounter()

/// Tells a caller whether something it submitted to a ``SerialGate`` was left for later instead of
/// performed before the submission returned: queued for the thread that owns the gate (which delivers it
/// after its current delivery), or queued behind the calling thread's own delivery (a reentrant send).
///
/// A channel uses it around a property's setter: a set that delivered nothing *and* was not left for
/// another delivery stored nothing; a set queued behind another thread's delivery is delivered later, by
/// that thread, and its change notification must still be recognized as the channel's echo.
@usableFromInline
package final class DeferredSubmissionWatch {
    /// Set when a submission made on this thread inside `watch` was left for later.
    @usableFromInline var deferred = false
    /// For a submission left for later: at most how many of the gate's operations are performed before
    /// it (the largest over the body's deferred submissions); `nil` if a gate could not tell.
    @usableFromInline var ahead: Int? = 0

    init() {}

    /// Runs `body`; returns its result and whether a gate submission it made (on this thread, to any
    /// gate) was left for later. Watches nest: an inner watch records into its own.
    package static func watch<Result>(_ body: () -> Result) -> (result: Result, deferred: Bool, ahead: Int?) {
        let watch = DeferredSubmissionWatch()
        // The thread's current watch: a thread-local slot (`tether_deferred_submission_watch`, TetherShims).
        let (result, previous) = withObjectInThreadSlot(
            watch, read: tether_deferred_submission_watch, write: tether_set_deferred_submission_watch,
            active: deferredSubmissionWatchers, body)
        if watch.deferred, let previous {
            // What an inner body left for later was left for later inside the outer body too.
            Unmanaged<DeferredSubmissionWatch>.fromOpaque(previous).takeUnretainedValue().record(ahead: watch.ahead)
        }
        return (result, watch.deferred, watch.deferred ? watch.ahead : nil)
    }

    func record(ahead: Int?) {
        deferred = true
        if let ahead, let known = self.ahead {
            self.ahead = max(known, ahead)
        } else {
            self.ahead = nil
        }
    }

    /// A gate left a submission of the calling thread for later: records it in the thread's watch, if any.
    ///
    /// `ahead`: at most how many of the gate's operations are performed before it, when the gate can
    /// tell (an ordered gate, see ``SerialGate/submitEventInOrder(_:perform:)``).
    @inlinable
    static func noteDeferred(ahead: Int? = nil) {
        if deferredSubmissionWatchers.value != 0 { recordDeferred(ahead: ahead) }
    }

    @usableFromInline
    static func recordDeferred(ahead: Int?) {
        guard let raw = tether_deferred_submission_watch() else { return }
        Unmanaged<DeferredSubmissionWatch>.fromOpaque(raw).takeUnretainedValue().record(ahead: ahead)
    }
}
