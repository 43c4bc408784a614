import TetherEngine

/// A disposable that disposes a group of disposables together (RAC's `RACCompoundDisposable`).
///
/// Adding to a disposed composite disposes the addition at once. `add(_:)` returns a key with
/// which a finished child is removed again, so long-lived composites do not accumulate children.
///
/// `dispose()` returns after every child has been disposed — also when another thread is disposing the
/// composite at the same moment: the second call waits (parked) for the first to finish. It returns at
/// once only where waiting would deadlock: when called from inside the first disposal (a child that
/// disposes its own composite), or when the first disposer is itself waiting for this thread (say, for a
/// callback this thread is running, which disposes the composite).
///
/// ```swift
/// let a = Signal<Int, Never>(values: [1, 2])
/// let b = Signal<Int, Never>(values: [3, 4])
/// let bag = CompositeDisposable()
/// bag.add(a.subscribe(next: { print($0) }))
/// bag.add(b.subscribe(next: { print($0) }))
/// bag.dispose()   // ends both subscriptions
/// ```
public final class CompositeDisposable: Disposable, @unchecked Sendable {
    // Safety: the children are guarded by `lock`; `disposedFlag` is the engine's `HeldFlag` (set under the
    // lock, read without it by `isDisposed`); children are disposed after the lock is released, and a second
    // disposer waits for the first through that flag, held by the first until it has disposed them all.
    /// Identifies one child added to a ``CompositeDisposable``, for ``CompositeDisposable/remove(_:)``.
    public struct Key: Hashable, Sendable {
        @usableFromInline let rawValue: UInt64
        @inlinable init(rawValue: UInt64) { self.rawValue = rawValue }
    }

    /// A child: a disposable, or a closure (stored as is: no wrapper object, and when it was created in
    /// specialized code, disposing runs specialized code — no generic-metadata lookups).
    ///
    /// Closures are stored without `@Sendable` (the same representation): the public `add(_:)` takes only
    /// `@Sendable` ones, and ``addUnchecked(_:)`` lets the library's own code add a thread-safe closure that the
    /// compiler cannot prove `Sendable` without converting it.
    @usableFromInline
    enum Child {
        case disposable(any Disposable)
        case action(() -> Void)

        @inlinable
        func dispose() {
            switch self {
            case .disposable(let disposable): disposable.dispose()
            case .action(let action): action()
            }
        }
    }

    /// What the composite holds, guarded by `lock`: no child, one child (key 0) inline, more in an overflow
    /// buffer, or, from disposal on, who disposes them.
    ///
    /// 17 bytes: 16 of payload (a closure, a class-bound existential, the buffer, or a thread ID and a flag)
    /// and a tag byte — a closure has no spare bits to hold the tag.
    @usableFromInline
    enum Children {
        /// No child held; the next child gets the key `nextKey`. Keys are never handed out twice: a child
        /// added after the first was removed goes to the overflow buffer under key 1 or more.
        case empty(nextKey: UInt64)
        /// One closure, key 0 (the next key is 1): a subscription's lifetime usually holds just this.
        case action(() -> Void)
        /// One disposable, key 0 (the next key is 1).
        case disposable(any Disposable)
        /// The children once a key other than 0 was handed out, with the key counter.
        case many(CompositeDisposableOverflow)
        /// Disposal has started: the children were moved out to the thread `disposer` (its
        /// ``currentThreadID``, 0 when there was nothing to dispose), which holds `disposedFlag` until it
        /// has disposed them all. `renewable`: at most one key (0) was ever handed out (see
        /// ``renewIfFinished()``).
        case disposed(by: UInt, renewable: Bool)
    }

    // The fields are ordered so that the object takes 40 bytes (glibc's 48-byte chunk): the 17-byte
    // children, two one-byte fields in their padding, the 4-byte lock.
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var children = Children.empty(nextKey: 0)
    /// Set, under `lock`, when disposal starts, and held by the disposing thread until every child is
    /// disposed: a second `dispose()` waits on it. Read lock-free by `isDisposed` (`Signal(values:)` checks
    /// it for every value).
    @usableFromInline let disposedFlag = HeldFlag()
    /// Whether this is (part of) a subscription whose subscriber someone else holds — a subject or an
    /// ``Observer`` subscribed as an observer. Then a recipe dropping its ``Observer`` does not end the
    /// subscription: it lives as long as that subscriber does (RAC 2.5's rule; see ``Observer``).
    @usableFromInline package let subscriberHeldElsewhere: Bool
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks); no bytes
    @usableFromInline let lock = Lock()

    /// Creates an empty composite.
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// ```
    @inlinable
    public init() {
        subscriberHeldElsewhere = false
    }

    /// Creates the lifetime of a subscription whose subscriber is held elsewhere (see
    /// ``subscriberHeldElsewhere``), or a part of a subscription: `CompositeDisposable(partOf: lifetime)`.
    @inlinable
    package init(subscriberHeldElsewhere: Bool) {
        self.subscriberHeldElsewhere = subscriberHeldElsewhere
    }

    /// Creates a lifetime for a part of the subscription whose lifetime is `parent` (an operator's input, an
    /// inner subscription): it inherits how the subscription ends. The caller adds it to `parent`.
    @inlinable
    package convenience init(partOf parent: CompositeDisposable) {
        self.init(subscriberHeldElsewhere: parent.subscriberHeldElsewhere)
    }

    /// Creates a composite holding `disposables`.
    ///
    /// ```swift
    /// let d1 = AnyDisposable { print("1") }, d2 = AnyDisposable { print("2") }
    /// let bag = CompositeDisposable([d1, d2])
    /// ```
    public init(_ disposables: [any Disposable]) {
        subscriberHeldElsewhere = false
        for disposable in disposables { add(disposable) }
    }

    /// Whether the composite has been disposed.
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// bag.isDisposed
    /// ```
    @inlinable
    public var isDisposed: Bool { disposedFlag.isSet }

    /// Adds `disposable`; if the composite is already disposed, disposes it at once.
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// let subscription = AnyDisposable { print("disposed") }
    /// let key = bag.add(subscription)
    /// ```
    /// - Returns: a key for ``remove(_:)``, or `nil` when the composite was already disposed.
    @discardableResult
    @inlinable
    public func add(_ disposable: (any Disposable)?) -> Key? {
        guard let disposable else { return nil }
        if disposable.isDisposed {
            // Already finished (say, a completed subscription): nothing to keep.
            return isDisposed ? nil : Key(rawValue: UInt64.max)
        }
        return add(child: .disposable(disposable), pruning: true)
    }

    /// Drops the children that were disposed elsewhere (a subscription that completed on its own), so
    /// that a long-lived composite holds only what is live. Amortized: it runs when the number of
    /// children doubled since the last pass. `isDisposed` is asked outside the lock.
    @usableFromInline
    func prune() {
        lock.lock()
        var candidates: [(key: UInt64, disposable: any Disposable)] = []
        switch children {
        case .disposable(let disposable): candidates = [(0, disposable)]
        case .many(let overflow): candidates = overflow.disposables()
        case .empty, .action, .disposed: break
        }
        lock.unlock()
        let finished = Set(candidates.filter { $0.disposable.isDisposed }.map(\.key))
        lock.lock()
        // Released after unlocking: a child's deinit is not run under the lock.
        var dropped = Children.empty(nextKey: 1)
        switch children {
        case .disposable where finished.contains(0):
            // Still the same child: key 0 is handed out once.
            swap(&dropped, &children)
        case .many(let overflow):
            overflow.prune(finished)
        case .empty, .action, .disposable, .disposed: break
        }
        lock.unlock()
        _ = consume dropped
    }

    /// Adds `child`. `pruning`: look for children disposed elsewhere when enough accumulated (for children
    /// that are disposables). Consuming: the caller's reference moves into `children` (borrowed, it was
    /// copied in: W3 retained the subscription's entry twice around this call, now once, with one
    /// `swift_retain_n`; callgrind).
    @inlinable
    func add(child: consuming Child, pruning: Bool) -> Key? {
        lock.lock()
        switch children {
        case .empty(nextKey: 0):
            switch consume child {
            case .action(let action): children = .action(action)
            case .disposable(let disposable): children = .disposable(disposable)
            }
            lock.unlock()
            return Key(rawValue: 0)
        case .disposed:
            lock.unlock()
            child.dispose()
            return nil
        case .empty, .action, .disposable, .many:
            let (key, needsPruning) = Self.addToOverflow(child, in: &children)
            lock.unlock()
            if pruning && needsPruning { prune() }
            return Key(rawValue: key)
        }
    }

    /// Adds `child` to `children` (held, not disposed) in its overflow buffer, allocated or enlarged as
    /// needed, under the composite's lock; returns its key and whether the composite should prune.
    /// (Static, so that a composite that never needs the buffer can still be allocated on the stack.)
    @usableFromInline
    @inline(never)
    static func addToOverflow(_ child: Child, in children: inout Children) -> (key: UInt64, needsPruning: Bool) {
        var overflow: CompositeDisposableOverflow
        switch children {
        case .empty(let nextKey):
            overflow = .make(minimumCapacity: 2, nextKey: nextKey)
        case .action(let action):
            overflow = .make(minimumCapacity: 2, nextKey: 0)
            overflow = overflow.appending(.action(action)).buffer
        case .disposable(let disposable):
            overflow = .make(minimumCapacity: 2, nextKey: 0)
            overflow = overflow.appending(.disposable(disposable)).buffer
        case .many(let buffer):
            overflow = buffer
        case .disposed:
            preconditionFailure("a disposed composite disposes what is added at once")
        }
        let (buffer, key) = overflow.appending(child)
        children = .many(buffer)
        return (key, buffer.needsPruning)
    }

    /// Adds a part of the same subscription (an operator's input, an inner subscription); if the composite
    /// is already disposed, disposes it at once. As the first child it is held inline.
    @discardableResult
    @inlinable
    package func add(_ child: CompositeDisposable) -> Key? {
        if child.isDisposed { return isDisposed ? nil : Key(rawValue: UInt64.max) }
        return add(child: .disposable(child), pruning: true)
    }

    /// Adds a closure to run when the composite is disposed.
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// bag.add { print("bag disposed") }
    /// ```
    @discardableResult
    @inlinable
    public func add(_ action: @escaping @Sendable () -> Void) -> Key? {
        add(child: .action(action), pruning: false)
    }

    /// Adds a closure to run when the composite is disposed, for the library's own closures that are safe to
    /// run on any thread but that the compiler cannot prove `Sendable`: a closure made in a generic type's
    /// method captures its generic parameters' metatypes, which are not `Sendable`; a subject's removal
    /// closure captures its entry, which holds a non-`Sendable` callback that the closure never touches (it
    /// reads the entry's constants and atomic flags only).
    ///
    /// Use it instead of bit-casting the closure to a `@Sendable` type: `unsafeBitCast` is generic, so the
    /// closure passed through it is wrapped in two reabstraction thunks, each a heap-allocated context
    /// (for a flattening operator, two allocations and two indirect calls per inner signal).
    @discardableResult
    @inlinable
    package func addUnchecked(_ action: consuming @escaping () -> Void) -> Key? {
        add(child: .action(action), pruning: false)
    }

    /// Removes a child without disposing it (for children that finished on their own).
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// let key = bag.add(AnyDisposable { print("disposed") })
    /// if let key { bag.remove(key) }
    /// ```
    @inlinable
    public func remove(_ key: Key) {
        lock.lock()
        switch children {
        case .action, .disposable:
            guard key.rawValue == 0 else { break }
            // Released after unlocking: a child's deinit is not run under the lock.
            var removed = Children.empty(nextKey: 1)
            swap(&removed, &children)
            lock.unlock()
            _ = consume removed
            return
        case .many(let overflow):
            let removed = overflow.remove(key.rawValue)
            lock.unlock()
            _ = consume removed
            return
        case .empty, .disposed: break
        }
        lock.unlock()
    }

    /// The number of live children held: children disposed elsewhere are dropped first (for tests and
    /// diagnostics).
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// let request = AnyDisposable { print("request cancelled") }
    /// bag.add(request)
    /// bag.add { print("cleaned up") }
    /// print(bag.count)   // 2
    /// request.dispose()  // request cancelled
    /// print(bag.count)   // 1 — the child disposed elsewhere is dropped
    /// ```
    public var count: Int {
        prune()
        return lock.withLock {
            switch children {
            case .empty, .disposed: 0
            case .action, .disposable: 1
            case .many(let overflow): overflow.header.count
            }
        }
    }

    /// Disposes every child (outside the lock), once; returns when they all have been disposed and released
    /// (a second `dispose()` on another thread waits for both).
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// bag.dispose()
    /// ```
    @inlinable
    public func dispose() {
        lock.lock()
        let renewable: Bool
        switch children {
        case .disposed(let disposer, _):
            lock.unlock()
            waitForDisposer(disposer)
            return
        case .empty(let nextKey):
            // Nothing to dispose: nothing for a second disposer to wait for.
            children = .disposed(by: 0, renewable: nextKey <= 1)
            disposedFlag.set(held: false)
            lock.unlock()
            return
        case .action, .disposable: renewable = true
        // The buffer holds children only once a key other than 0 was handed out.
        case .many: renewable = false
        }
        // Moved out, not copied: no reference counting for the children on the way out of the lock. The
        // flag is held before any second disposer can see it set.
        var taken = Children.disposed(by: currentThreadID, renewable: renewable)
        swap(&taken, &children)
        disposedFlag.set(held: true)
        lock.unlock()
        // Consumed: the child moves out of `taken` (switched over as a copy, the closure's context was
        // retained around its call and both released after it: W3, callgrind). It is released at the end of
        // its case, so its deinit runs while `disposedFlag` is still held, like its disposal.
        switch consume taken {
        case .action(let action): action()
        case .disposable(let disposable): disposable.dispose()
        case .many(let overflow): overflow.disposeAll()
        case .empty, .disposed: break
        }
        if disposedFlag.release() {
            wakeWaitingDisposers()
        }
    }

    /// Makes this disposed composite a new, empty one, for its only owner to use again (a flattening operator
    /// reuses the lifetime of an inner signal that has ended for the next inner). Returns `false`, changing
    /// nothing, unless the composite's disposal has finished and at most one child was ever added to it: then
    /// nobody can hold one of its keys, so no key handed out before can remove a child added after (someone
    /// holding the composite weakly along with a key would otherwise see it renewed).
    ///
    /// The caller must hold the only reference (`isKnownUniquelyReferenced`): nothing else sees it change.
    @inlinable
    package func renewIfFinished() -> Bool {
        // Not held (acquiring): the disposal, and the state it left, are visible.
        guard disposedFlag.isSet, !disposedFlag.isHeld,
            case .disposed(_, renewable: true) = children
        else { return false }
        children = .empty(nextKey: 0)
        disposedFlag.clear()  // the only reference: as exclusive as the lock
        return true
    }

    /// A second `dispose()`: waits until the first has disposed every child, unless that would deadlock.
    @inlinable
    func waitForDisposer(_ disposer: UInt) {
        if disposer == 0 || disposer == currentThreadID || !disposedFlag.isHeld { return }
        waitForDisposerSlow(disposer)
    }

    // The slow paths, `wakeWaitingDisposers()` and `waitForDisposerSlow(_:)`, are in RuntimeAssumptions.swift
    // (declared not to let `self` escape).
}
