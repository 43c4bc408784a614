import Dispatch
import Synchronization

/// Serializes operations submitted from any number of threads, without holding a lock while they run.
///
/// The gate has at most one *owner*: the thread currently performing operations. A submission
///
/// - from the owner itself (a reentrant call from inside an operation) is queued locally and performed
///   right after the current operation — never nested, never lost (guarantee 4);
/// - from another thread while the gate is owned is queued and performed by the owner, in order
///   (guarantee 3); the submitting thread returns at once;
/// - to an idle gate makes the caller the owner: it performs the operation and drains what was queued.
///
/// The uncontended path costs two compare-and-swaps and no allocation. The spin lock only guards the
/// cross-thread queue and the list of waiters, never the execution of an operation.
///
/// `waitForOwner()` lets a disposer on another thread block until the owner has finished the
/// operation in flight (guarantee 2: `dispose()` returns after a running callback has returned).
@usableFromInline
package class SerialGate<Op>: @unchecked Sendable {
    // Bit 0: something is queued remotely or someone waits; the other bits: the owner's thread ID.
    @usableFromInline package let word = Atomic<UInt>(0)
    @usableFromInline package let lock = SpinLock()
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) package var remote: [Op] = []
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) package var waiters: [DispatchSemaphore] = []
    /// Touched only by the owner.
    @usableFromInline @exclusivity(unchecked) package var local: [Op] = []
    /// Touched only by the owner: `local.count`, kept apart so the hot path checks it without
    /// retaining the array.
    @usableFromInline @exclusivity(unchecked) package var localCount = 0
    /// Guarded by `lock`: set when the owner has performed many operations for other threads; the next
    /// contended submitter then becomes `successor` and takes the gate over, so that no thread is kept
    /// delivering a flood that another thread produces (the producer ends up delivering its own events).
    @usableFromInline @exclusivity(unchecked) package var handoffRequested = false
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) package var successor: (thread: UInt, semaphore: DispatchSemaphore)?

    /// Set (under `lock`) when a waiter or a successor arrives, so that an owner working through a long
    /// batch notices them after the operation in progress instead of after the whole batch.
    @usableFromInline package let attention = Atomic<Bool>(false)

    /// How many operations an owner performs for other threads before asking for a successor.
    @usableFromInline package static var handoffThreshold: Int { 256 }

    @inlinable
    package init() {}

    /// Whether the calling thread is currently performing an operation of this gate.
    @inlinable
    package final var isOwnedByCurrentThread: Bool {
        word.load(ordering: .relaxed) & ~1 == currentThreadID
    }

    /// Submits `op`; `perform` runs it (now or later, on whichever thread owns the gate then).
    ///
    /// `perform` must be the same logic for every submission to one gate.
    @inlinable
    package final func submit(_ op: Op, perform: (Op) -> Void) {
        let me = currentThreadID
        let current = word.load(ordering: .relaxed)
        if current & ~1 == me {
            local.append(op)
            localCount &+= 1
            return
        }
        if current == 0,
            word.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
        {
            perform(op)
            if localCount == 0,
                word.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged
            {
                return
            }
            drainAndRelease(me, perform: perform)
            return
        }
        submitContended(op, me: me, perform: perform)
    }

    @inlinable
    package final func drainLocal(perform: (Op) -> Void) {
        if localCount == 0 { return }
        var index = 0
        while index < localCount {
            let op = local[index]
            index += 1
            perform(op)
        }
        localCount = 0
        local.removeAll(keepingCapacity: local.capacity <= 64)
    }

    @inlinable
    package final func drainAndRelease(_ me: UInt, perform: (Op) -> Void) {
        var performedForOthers = 0
        while true {
            drainLocal(perform: perform)
            if word.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged {
                return
            }
            // The pending bit is set: remote work, waiters or a successor.
            lock.lock()
            let wake = waiters
            waiters.removeAll()
            if let next = successor {
                // Hand the gate over: the successor drains the queue (its own operation included).
                successor = nil
                handoffRequested = false
                word.store(next.thread | 1, ordering: .releasing)
                lock.unlock()
                for semaphore in wake { semaphore.signal() }
                next.semaphore.signal()
                return
            }
            if remote.isEmpty {
                handoffRequested = false
                word.store(0, ordering: .releasing)
                lock.unlock()
                for semaphore in wake { semaphore.signal() }
                return
            }
            let batch = remote
            remote.removeAll()
            if performedForOthers + batch.count > Self.handoffThreshold { handoffRequested = true }
            word.store(me, ordering: .releasing)
            lock.unlock()
            for semaphore in wake { semaphore.signal() }
            var index = 0
            while index < batch.count {
                perform(batch[index])
                index += 1
                performedForOthers += 1
                drainLocal(perform: perform)
                if attention.load(ordering: .relaxed) {
                    // A disposer waits for the operation in flight, or a successor wants the gate.
                    lock.lock()
                    attention.store(false, ordering: .relaxed)
                    let waiting = waiters
                    waiters.removeAll()
                    if let next = successor {
                        successor = nil
                        handoffRequested = false
                        if index < batch.count { remote.insert(contentsOf: batch[index...], at: 0) }
                        word.store(next.thread | 1, ordering: .releasing)
                        lock.unlock()
                        for semaphore in waiting { semaphore.signal() }
                        next.semaphore.signal()
                        return
                    }
                    lock.unlock()
                    for semaphore in waiting { semaphore.signal() }
                }
            }
        }
    }

    @inlinable
    package final func submitContended(_ op: Op, me: UInt, perform: (Op) -> Void) {
        lock.lock()
        remote.append(op)
        let acquired = markPendingOrAcquire(me)
        var semaphore: DispatchSemaphore?
        if !acquired && handoffRequested && successor == nil {
            let waiting = DispatchSemaphore(value: 0)
            successor = (me, waiting)
            semaphore = waiting
            attention.store(true, ordering: .relaxed)
        }
        lock.unlock()
        if acquired {
            drainAndRelease(me, perform: perform)
        } else if let semaphore {
            // Wait briefly for the owner to hand over. If it does not come (its callback may be waiting
            // for this very thread), withdraw: the operation stays queued for the owner.
            if semaphore.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
                lock.lock()
                let withdrawn = successor?.semaphore === semaphore
                if withdrawn { successor = nil }
                lock.unlock()
                if withdrawn { return }
                semaphore.wait()
            }
            drainAndRelease(me, perform: perform)
        }
    }

    /// Called with `lock` held. Either flags pending work for the current owner, or, if the gate
    /// became idle, takes ownership (with the pending bit set, so the queue gets drained).
    @inlinable
    package final func markPendingOrAcquire(_ me: UInt) -> Bool {
        var current = word.load(ordering: .relaxed)
        while true {
            if current == 0 {
                let (exchanged, original) = word.compareExchange(
                    expected: 0, desired: me | 1, ordering: .acquiring)
                if exchanged { return true }
                current = original
            } else if current & 1 == 1 {
                return false
            } else {
                let (exchanged, original) = word.compareExchange(
                    expected: current, desired: current | 1, ordering: .relaxed)
                if exchanged { return false }
                current = original
            }
        }
    }

    /// Blocks until the operation running on another thread (if any) has returned.
    ///
    /// Returns at once when the gate is idle or owned by the calling thread.
    @inlinable
    package final func waitForOwner() {
        let me = currentThreadID
        let current = word.load(ordering: .acquiring)
        if current & ~1 == 0 || current & ~1 == me { return }
        let semaphore = DispatchSemaphore(value: 0)
        lock.lock()
        var observed = word.load(ordering: .relaxed)
        var mustWait = false
        while true {
            if observed & ~1 == 0 { break }
            if observed & 1 == 1 {
                mustWait = true
                break
            }
            let (exchanged, original) = word.compareExchange(
                expected: observed, desired: observed | 1, ordering: .relaxed)
            if exchanged {
                mustWait = true
                break
            }
            observed = original
        }
        if mustWait {
            waiters.append(semaphore)
            attention.store(true, ordering: .relaxed)
        }
        lock.unlock()
        if mustWait { semaphore.wait() }
        // Synchronize with the owner's release so its writes are visible.
        _ = word.load(ordering: .acquiring)
    }
}
