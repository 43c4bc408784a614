import Foundation
import Observable
import TetherEngine

extension NotificationCenter {
    /// The notifications named `name` (any name when `nil`) as a signal (RAC's
    /// `rac_addObserverForName:object:`).
    ///
    /// Each subscription adds one block observer to this center; disposing the subscription removes it,
    /// exactly once. Values arrive on the posting thread, serialized: posts from several threads never
    /// overlap in the subscriber. Foundation on Linux can run a removed block after `removeObserver`
    /// returned; the bridge gates delivery itself, so nothing reaches the subscriber once `dispose()`
    /// has returned.
    ///
    /// With `object`, only notifications posted by that very object are delivered. The bridge does not
    /// keep the object alive; it holds an unowned reference, which keeps only the object's memory
    /// allocated until the signal and its subscriptions are gone, so that no new object can take the
    /// dead one's address (Foundation on Linux filters by address). A weak reference would slow down
    /// every retain and release of the object. When the object is gone the signal completes — at the
    /// next post of `name` (Linux has no deallocation hook for arbitrary objects; end it earlier with
    /// `take(until:)` on the owner's lifetime if you need to). Without a `name`, only the object's own
    /// posts reach the bridge, so that signal does not complete by itself: dispose it.
    ///
    /// ```swift
    /// let subscription = NotificationCenter.default
    ///     .signal(for: .init("ThemeChanged"))
    ///     .subscribe(next: { note in print("theme:", note.userInfo?["name"] ?? "?") })
    /// NotificationCenter.default.post(name: .init("ThemeChanged"), object: nil, userInfo: ["name": "dark"])
    /// // theme: dark
    /// subscription.dispose()   // the observer is removed
    /// ```
    public func signal(for name: Notification.Name?, object: AnyObject? = nil) -> Signal<Notification, Never> {
        guard let object else {
            // The hot path (benchmark W7): the block calls the observer directly.
            return Signal { observer in
                let relay = NotificationRelay(observer)
                let token = self.addObserver(forName: name, object: nil, queue: nil) { relay.forward($0) }
                return NotificationObservation(center: self, token: token)
            }
        }
        let filter = NotificationSenderFilter(object)
        return Signal { observer in
            self.observe(name, filter: filter, completed: { observer.sendCompleted() }, to: NotificationRelay(observer))
        }
    }

    /// The notifications named `name`, delivered on `scheduler` instead of the posting thread.
    ///
    /// Order is kept for posts from one thread (on a serial scheduler). The object filter is checked on the
    /// posting thread. `Notification` is not `Sendable`: the notification (and its `userInfo`) is handed
    /// to the scheduler's thread, so post only values that are safe to read there.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let ui = QueueScheduler(name: "ui")
    /// center.signal(for: .init("Refreshed"), on: ui).subscribe(next: { _ in print("redraw") })
    /// ```
    public func signal(
        for name: Notification.Name?, object: AnyObject? = nil, on scheduler: any Scheduler
    ) -> Signal<Notification, Never> {
        let filter = object.map(NotificationSenderFilter.init)
        return Signal { observer in
            self.observe(
                name, filter: filter,
                completed: { scheduler.schedule { observer.sendCompleted() } }
            ) { notification in
                // Handing the notification to the scheduler's thread is the documented contract above.
                let box = UncheckedSendable(notification)
                scheduler.schedule { observer.send(box.value) }
            }
        }
    }

    /// Adds a block observer for `name` that forwards matching notifications to `forward`, and returns the
    /// disposable that removes it exactly once.
    func observe(
        _ name: Notification.Name?,
        filter: NotificationSenderFilter?,
        completed: @escaping @Sendable () -> Void,
        forward: @escaping @Sendable (Notification) -> Void
    ) -> (any Disposable)? {
        observe(name, filter: filter, completed: completed, to: NotificationForwarder(forward))
    }

    /// Adds a block observer for `name` that hands matching notifications to `target`, and returns the
    /// disposable that removes it exactly once.
    ///
    /// With a `filter` and a `name`, the observer is registered for the name alone and the sender is
    /// compared by identity here (a cast and an address comparison: the filter keeps the address from
    /// being reused), so a dead filter object is noticed at the next post of that name from another
    /// object, and the observation ends. Without a name, Foundation's object filter narrows the posts
    /// first (observing every notification of the center would be costly); only the filter object's posts
    /// reach the block then, and a dead one is noticed when the subscription is disposed.
    func observe<Target: NotificationForwarding>(
        _ name: Notification.Name?,
        filter: NotificationSenderFilter?,
        completed: @escaping @Sendable () -> Void,
        to target: Target
    ) -> (any Disposable)? {
        let token: any NSObjectProtocol
        if let filter {
            // A strong reference for the registration only (Foundation keeps no reference to it).
            guard let object = filter.object else {
                completed()
                return nil
            }
            let ended = NotificationObservation.Flag()
            token = addObserver(forName: name, object: name == nil ? object : nil, queue: nil) { notification in
                if filter.matches(notification) {
                    target.forward(notification)
                } else if filter.isGone, ended.set() {
                    completed()
                }
            }
        } else {
            token = addObserver(forName: name, object: nil, queue: nil) { notification in
                target.forward(notification)
            }
        }
        return NotificationObservation(center: self, token: token)
    }
}

/// Where a bridged observer's block hands the notifications it lets through.
protocol NotificationForwarding: Sendable {
    func forward(_ notification: Notification)
}

/// Hands the forwarding closure (and the observer it captures) to the posting threads through an
/// acquire/release pair that Thread Sanitizer can see.
///
/// Foundation's lock orders `addObserver` before a post's snapshot of its observers, but it is invisible
/// to TSan (see the Linux notes article, Observable.docc/LinuxNotes.md), which then reports the
/// subscriber's setup as racing with its first delivery. Setting `published` after construction
/// (releasing) and reading it per post (acquiring) make the real ordering visible, so no suppression is
/// needed; on x86-64 the read is a plain move.
final class NotificationForwarder: NotificationForwarding, Sendable {
    private let body: @Sendable (Notification) -> Void
    private let published = AtomicFlag()

    init(_ body: @escaping @Sendable (Notification) -> Void) {
        self.body = body
        published.raise()
    }

    @inline(__always)
    func forward(_ notification: Notification) {
        if published.isSet { body(notification) }
    }
}

/// The unfiltered bridge's block target: the observer, published like ``NotificationForwarder``.
final class NotificationRelay: NotificationForwarding, Sendable {
    private let observer: Observer<Notification, Never>
    private let published = AtomicFlag()

    init(_ observer: Observer<Notification, Never>) {
        self.observer = observer
        published.raise()
    }

    @inline(__always)
    func forward(_ notification: Notification) {
        if published.isSet { observer.send(notification) }
    }
}

/// Removes one block observer from its center, exactly once: removing a token twice can unregister a
/// later, unrelated observer on Linux (tokens are recycled).
final class NotificationObservation: Disposable, @unchecked Sendable {
    // Safety: `center` (weak: read atomically) and `token` are never reassigned; `removed` is the
    // one-shot flag.
    //
    // The center is weak: it keeps the observer's block, and the block keeps the subscription that keeps
    // this object. A strong reference here would close that cycle, so a subscription nobody disposed
    // would keep a private center (and itself) alive forever. Weak, a released center frees its blocks,
    // which ends the subscription quietly: nobody can post any more. (The token must stay strong:
    // swift-corelibs-foundation's center does not keep it.)
    private weak let center: NotificationCenter?
    private let token: any NSObjectProtocol
    private let removed = Flag()

    init(center: NotificationCenter, token: any NSObjectProtocol) {
        self.center = center
        self.token = token
    }

    var isDisposed: Bool { removed.isSet }

    func dispose() {
        guard removed.set(), let center else { return }
        center.removeObserver(token)
    }

    /// A flag that can be set once, from any thread, that closures can share.
    final class Flag: Sendable {
        private let flag = AtomicFlag()

        var isSet: Bool { flag.isSet }

        /// Sets the flag; returns `true` for the call that set it.
        func set() -> Bool { flag.raise() }
    }
}
