import TetherEngine

// How subscribers join a subject and leave it before the owner took them in: in place under the lock (a
// plain subject), catching up on their own thread (a subject that replays, see `JoinCatchUp`), or through
// the gate (a plain subject that ended). The notes are in `SubjectCore`'s ("Joins", "Subjects that replay").
extension SubjectCore {
    /// A plain subject that ended: the join delivers the terminal event (or ends the subscription) through
    /// the gate, where nothing else is delivered any more. Out of line: a plain subject's join never builds
    /// an operation (an unspecialized build fetches its type's metadata for that, under the runtime's lock).
    @usableFromInline
    func joinThroughGate(_ entry: SubjectEntry<Value, Failure>) {
        let core = Unmanaged.passUnretained(self)
        submitJoin(.add(entry)) { op in core._withUnsafeGuaranteedRef { $0.perform(op) } }
    }

    /// Joins a subject that replays (see "Subjects that replay" in the type's notes): reads the replay under
    /// the lock, takes its place (unless the subject ended), then catches up on this thread.
    @usableFromInline
    func joinReplaying(_ entry: SubjectEntry<Value, Failure>) {
        let catchUp = JoinCatchUp<Value, Failure>()
        let (replay, terminal) = withLock {
            let replay = buffer[bufferStart...]
            let terminal = submittedTerminal
            let ended = terminal != nil || shutdownSubmitted
            catchingUp.link(catchUp, for: entry)
            catchUps.begin()
            // After the end was submitted nothing will be delivered but the replay and the terminal event,
            // if any: no place to take (the queue closes when the owner performs that end).
            if !ended, let index = joinQueue.join(entry) {
                joins.publish(index)
            } else {
                catchUp.handOverEnd()
            }
            return (replay, terminal)
        }
        let isDisposed = { entry.flags.isDisposedRelaxed }
        let giveToOwner = {
            var queued = false
            self.submitInOrderWithoutWaiting {
                // Only to another thread delivering a flood; never taking the gate (see `JoinCatchUp`).
                guard self.orderedSubmissionDeliveryLocked() == .byAnotherThread else { return nil }
                queued = true
                return .flush(entry)
            } perform: {
                self.perform($0)
            }
            return queued
        }
        let unlink = { self.unlink(catchUp) }
        let end = { entry.finish() }
        let id = entry.id
        let send = { (event: Event<Value, Failure>) in entry.send(event, at: id) }
        if let terminal {
            let events = replay.map { Event<Value, Failure>.next($0) } + [terminal]
            catchUp.run(
                initial: events, send: send, gate: self, isDisposed: isDisposed, giveToOwner: giveToOwner,
                unlink: unlink, end: end)
        } else {
            catchUp.run(
                initial: replay.lazy.map { .next($0) }, send: send, gate: self, isDisposed: isDisposed,
                giveToOwner: giveToOwner, unlink: unlink, end: end)
        }
    }

    /// Ends `catchUp`'s link: the owner calls its subscriber from now on. Called under the gate's lock.
    @inlinable
    func unlink(_ catchUp: JoinCatchUp<Value, Failure>) {
        catchingUp.unlink(catchUp)
        catchUps.end()
    }

    /// Performs the `flush` a joiner that fell behind queued: delivers its backlog to `entry` as the owner,
    /// and from now on calls it directly.
    @usableFromInline
    func flush(_ entry: SubjectEntry<Value, Failure>) {
        let taken = withLock { () -> (backlog: [Event<Value, Failure>], ends: Bool)? in
            guard let catchUp = catchUp(of: entry) else { return nil }
            unlink(catchUp)
            return catchUp.takeOver()
        }
        guard let taken else { return }
        let ended = JoinCatchUp.deliver(takenOver: taken) { call(entry, $0) }
        exitCallback()
        if ended { entry.finish() }
    }

    /// The catch-up of `entry`, if it is catching up. Called under the gate's lock.
    @inlinable
    func catchUp(of entry: SubjectEntry<Value, Failure>) -> JoinCatchUp<Value, Failure>? {
        catchingUp.catchUp(of: entry)
    }

    /// Called by the owner instead of calling `entry` with `event`, when `entry` is catching up: appends
    /// `event` to its backlog; returns whether it did.
    @inlinable
    func handOver(_ event: Event<Value, Failure>, to entry: SubjectEntry<Value, Failure>) -> Bool {
        if catchUps.isZero { return false }
        return withLock {
            guard let catchUp = catchUp(of: entry) else { return false }
            catchUp.handOver(event)
            return true
        }
    }

    /// Called by the owner instead of ending `entry`'s subscription (the subject went away), when `entry`
    /// is catching up: it ends after its backlog; returns whether it will.
    @inlinable
    func handOverEnd(to entry: SubjectEntry<Value, Failure>) -> Bool {
        if catchUps.isZero { return false }
        return withLock {
            guard let catchUp = catchUp(of: entry) else { return false }
            catchUp.handOverEnd()
            return true
        }
    }

    /// Joins a plain subject: under the lock (see "Joins" in the type's notes), or through the gate when
    /// the subject already performed its terminal event or shutdown. Consuming: the caller's reference moves
    /// into the join queue (one retain and one release less per subscription).
    @inlinable
    func joinPlain(_ entry: consuming SubjectEntry<Value, Failure>) {
        // The entry is passed into the locked section, not captured: a captured reference would be copied
        // (retained) into the queue. It comes back out when the queue is closed.
        let turnedAway = withLock(moving: entry) { entry -> SubjectEntry<Value, Failure>? in
            if joinQueue.isClosed { return entry }
            // Open (checked above): `join` returns the entry's join index.
            joins.publish(joinQueue.join(entry).unsafelyUnwrapped)
            return nil
        }
        if let turnedAway { joinThroughGate(turnedAway) }
    }

    /// Called by the owner: takes the subscribers that joined meanwhile in; with `close`, later
    /// ones join through the gate (the terminal event or the shutdown is being performed).
    @usableFromInline
    func takeJoins(closing close: Bool = false) {
        withLock {
            joined.takeIn(&joinQueue)
            if close { joinQueue.close() }
        }
    }

    /// Takes `entry` out of the join queue if the owner has not taken it in yet, and marks it disposed there;
    /// returns whether it did (a plain subject's removal, see ``remove(_:)``).
    @inlinable
    func removePending(_ entry: SubjectEntry<Value, Failure>) -> Bool {
        withLock {
            let removed = removePendingLocked(entry)
            if removed { entry.flags.markDisposedUnshared() }
            return removed
        }
    }

    /// ``removePending(_:)``, called under the gate's lock.
    @inlinable
    func removePendingLocked(_ entry: SubjectEntry<Value, Failure>) -> Bool {
        joinQueue.remove(entry)
    }

    /// An ordered core's subscriber disposed: waits for a catch-up callback of it in flight, if it is
    /// catching up; returns whether it was still in the join queue (then the owner never calls it).
    @usableFromInline
    func removeJoining(_ entry: SubjectEntry<Value, Failure>) -> Bool {
        let (joining, wasPending) = withLock { (catchUp(of: entry), removePendingLocked(entry)) }
        joining?.waitForJoiner()
        return wasPending
    }
}
