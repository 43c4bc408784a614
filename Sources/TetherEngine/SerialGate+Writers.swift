/// Writers that exclude each other across a caller's closure — a property's `modify` — on an ordered gate.
///
/// A `modify` reads the value, runs the caller's closure on a copy outside the lock, and stores the result
/// in lock order; no other write may come between its read and its store. The source keeps one
/// ``OwnerWord`` (the *writer*: the thread running such a closure) and passes it here; the gate does the
/// waiting:
///
/// - ``acquireWriter(_:perform:whileLocked:)`` takes the writer, parked (wake-one) while another thread
///   holds it, and first waits for room in the backlog: the store at the end of a `modify` is submitted
///   without waiting (``submitInOrderWithoutWaiting(_:perform:)``), since the thread that makes room (the
///   gate's owner) may itself be waiting for the writer — an observer's set.
/// - ``waitForWriter(_:)`` is a plain write's (a set's) wait while a writer is held; it never takes the
///   writer's place.
/// - ``releaseWriter(_:)`` ends a `modify` (from inside its store's submission, under the lock) and wakes
///   one parked writer.
///
/// Parked writers are woken one at a time, not all together: with more writers than cores, waking every
/// parked writer at each step makes them fight for the processor and turns each step into several
/// context switches (a convoy). A woken writer holds that wake until it takes the writer or passes it on.
extension SerialGate {
    /// Where writers waiting for a `modify` to finish park (the senders park at `sendersAddress`, the
    /// disposers at `disposersAddress`).
    @inlinable
    final var writersAddress: UInt { parkingAddress(of: self) &+ 2 }

    /// Takes `writer` for the calling thread, once there is room in the backlog, then runs `body` under the
    /// gate's lock (a `modify` reads the value there) and returns its result. Parks while another thread
    /// holds `writer` or the backlog is full. The caller releases it with ``releaseWriter(_:)``.
    @inlinable
    package final func acquireWriter<R>(
        _ writer: borrowing OwnerWord, perform: (Op) -> Void, whileLocked body: () -> R
    ) -> R {
        let me = currentThreadID
        // A writer that parked takes the writer with the waiters bit set: other writers may still be parked
        // behind it, and its own end must wake the next one.
        var woken = false
        lock.lock()
        while true {
            // Room in the backlog is waited for here, before taking the writer (see the type's notes).
            if woken && remote.count >= Self.backlogLimit {
                // This thread holds the wake of the `modify` that ended (wake-one: the other writers stay
                // parked behind it) and is about to park for room. It passes the wake on first: the writer
                // behind it may be the gate's owner, inside an observer's set — the one thread that makes
                // room (issue 42, bug 1). If it takes the writer later, a woken writer that finds it taken
                // marks the waiters bit again before parking.
                woken = false
                writer.wakeOne(parkedAt: writersAddress)
            }
            waitForRoomInOrder(perform: perform)
            if writer.tryAcquire(by: me, markingWaiters: woken) { break }
            lock.unlock()
            if parkForWriter(writer) { woken = true }
            lock.lock()
        }
        let result = body()
        lock.unlock()
        return result
    }

    /// A plain write's wait: returns once no thread holds `writer` (at once when none does). A write does
    /// not take the writer's place, so a write woken by the `modify` that ended passes the wake on to the
    /// next writer parked behind it.
    @inlinable
    package final func waitForWriter(_ writer: borrowing OwnerWord) {
        if writer.isOwned, parkForWriter(writer) {
            writer.wakeOne(parkedAt: writersAddress)
        }
    }

    /// Releases `writer`, taken with ``acquireWriter(_:perform:whileLocked:)``, and wakes one writer parked
    /// for it. Called at the `modify`'s store, before that store's delivery (which may take a while).
    @inlinable
    package final func releaseWriter(_ writer: borrowing OwnerWord) {
        if writer.release() {
            writer.wakeOne(parkedAt: writersAddress)
        }
    }

    /// Waits until no thread holds `writer`: a short bounded retry (a `modify` closure is usually a few
    /// instructions long), then parks. Returns whether it parked — and was woken, as the one writer that the
    /// ending `modify` wakes.
    @usableFromInline
    final func parkForWriter(_ writer: borrowing OwnerWord) -> Bool {
        writer.waitUntilReleased(parkingAt: writersAddress, spinning: 16)
    }
}
