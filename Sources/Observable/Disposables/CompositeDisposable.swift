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
    // Safety: the children are guarded by `lock`; `disposedFlag` is the engine's `AtomicFlag` (changed under
    // the lock, read without it by `isDisposed`); children are disposed after the lock is released, and a second disposer waits for
    // the first through the engine's `OwnerWord`.
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

    @usableFromInline let lock = Lock()
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)
    /// Set once, under `lock`, when disposal starts; read under the lock, and lock-free by `isDisposed`
    /// (`Signal(values:)` checks it for every value).
    @usableFromInline let disposedFlag = AtomicFlag()
    /// Whether this is (part of) a subscription whose subscriber someone else holds — a subject or an
    /// ``Observer`` subscribed as an observer. Then a recipe dropping its ``Observer`` does not end the
    /// subscription: it lives as long as that subscriber does (RAC 2.5's rule; see ``Observer``).
    @usableFromInline package let subscriberHeldElsewhere: Bool
    // Guarded by `lock` (the fields are ordered so that the object stays small: a subscription makes one).
    /// `add(_:)` prunes finished children when `rest` holds `32 << pruneShift` of them.
    @usableFromInline @exclusivity(unchecked) var pruneShift: UInt8 = 0
    /// Set when disposal starts if at most one child was ever added (no key but 0 was handed out): see
    /// ``renewIfFinished()``. (In the byte after `pruneShift`, which the layout left free.)
    @usableFromInline @exclusivity(unchecked) var heldOneChildAtMost = false
    /// Before disposal (guarded by `lock`, in its raw ``OwnerWord/word``): the key of the next child. From
    /// disposal on: the owner word of the thread disposing the children (free: none, or finished), which a
    /// second `dispose()` waits on. One word for both, since no key is handed out once the composite is
    /// disposed, and nobody waits on it before.
    @usableFromInline let keyOrDisposer = OwnerWord()
    /// The first child added, when it is a closure (key 0), inline: most composites hold one or two children,
    /// and a subscription's lifetime usually holds one closure.
    @usableFromInline @exclusivity(unchecked) var firstAction: (() -> Void)?
    /// Every other child, in the order added.
    @usableFromInline @exclusivity(unchecked) var rest: [(key: UInt64, child: Child)] = []

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
        let key = add(child: .disposable(disposable))
        if needsPruning { prune() }
        return key
    }

    /// Whether enough children accumulated to look for ones disposed elsewhere.
    @usableFromInline
    var needsPruning: Bool {
        lock.withLock { rest.count >= 32 << Int(pruneShift) }
    }

    /// Drops the children that were disposed elsewhere (a subscription that completed on its own), so
    /// that a long-lived composite holds only what is live. Amortized: it runs when the number of
    /// children doubled since the last pass. `isDisposed` is asked outside the lock.
    @usableFromInline
    func prune() {
        lock.lock()
        var candidates: [(key: UInt64, disposable: any Disposable)] = []
        for entry in rest {
            if case .disposable(let disposable) = entry.child { candidates.append((entry.key, disposable)) }
        }
        lock.unlock()
        let finished = Set(candidates.filter { $0.disposable.isDisposed }.map(\.key))
        lock.lock()
        if !finished.isEmpty {
            rest.removeAll { finished.contains($0.key) }
        }
        // The next pass when the live children doubled (at 32 at the least).
        var shift: UInt8 = 0
        while 32 << Int(shift) < rest.count * 2 { shift += 1 }
        pruneShift = shift
        lock.unlock()
    }

    @inlinable
    func add(child: Child) -> Key? {
        lock.lock()
        if disposedFlag.isSetRelaxed {
            lock.unlock()
            child.dispose()
            return nil
        }
        let key = keyOrDisposer.takeCounterUnderLock()
        if key == 0, case .action(let action) = child {
            firstAction = action
        } else {
            rest.append((UInt64(key), child))
        }
        lock.unlock()
        return Key(rawValue: UInt64(key))
    }

    /// Adds a part of the same subscription (an operator's input, an inner subscription); if the composite
    /// is already disposed, disposes it at once. As the first child it is held inline, as a closure whose
    /// context is `child` itself (no allocation).
    @discardableResult
    @inlinable
    package func add(_ child: CompositeDisposable) -> Key? {
        if child.isDisposed { return isDisposed ? nil : Key(rawValue: UInt64.max) }
        lock.lock()
        if disposedFlag.isSetRelaxed {
            lock.unlock()
            child.dispose()
            return nil
        }
        let key = keyOrDisposer.takeCounterUnderLock()
        if key == 0 {
            firstAction = { child.dispose() }
        } else {
            rest.append((UInt64(key), .disposable(child)))
        }
        let prune = rest.count >= 32 << Int(pruneShift)
        lock.unlock()
        if prune { self.prune() }
        return Key(rawValue: UInt64(key))
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
        add(child: .action(action))
    }

    /// Adds a closure to run when the composite is disposed, for the library's own closures that are safe to
    /// run on any thread but that the compiler cannot prove `Sendable`: a closure made in a generic type's
    /// method captures its generic parameters' metatypes, which are not `Sendable`.
    ///
    /// Use it instead of bit-casting the closure to a `@Sendable` type: `unsafeBitCast` is generic, so the
    /// closure passed through it is wrapped in two reabstraction thunks, each a heap-allocated context
    /// (for a flattening operator, two allocations and two indirect calls per inner signal).
    @discardableResult
    @inlinable
    package func addUnchecked(_ action: @escaping () -> Void) -> Key? {
        add(child: .action(action))
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
        if key.rawValue == 0 && firstAction != nil {
            firstAction = nil
        } else if let index = rest.firstIndex(where: { $0.key == key.rawValue }) {
            rest.remove(at: index)
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
        return lock.withLock { (firstAction == nil ? 0 : 1) + rest.count }
    }

    /// Disposes every child (outside the lock), once; returns when they all have been disposed.
    ///
    /// ```swift
    /// let bag = CompositeDisposable()
    /// bag.dispose()
    /// ```
    @inlinable
    public func dispose() {
        lock.lock()
        if disposedFlag.isSetRelaxed {
            lock.unlock()
            waitForDisposer(currentThreadID)
            return
        }
        disposedFlag.store(true)
        heldOneChildAtMost = keyOrDisposer.counterUnderLock <= 1
        // Moved out, not copied: no reference counting for the children on the way out of the lock.
        let head = firstAction.take()
        var tail: [(key: UInt64, child: Child)] = []
        swap(&tail, &rest)
        if head == nil && tail.isEmpty {
            // Nothing to dispose: nothing for a second disposer to wait for.
            keyOrDisposer.clearCounterUnderLock()
            lock.unlock()
            return
        }
        // The key counter becomes the disposer's owner word: under the lock, before any second disposer
        // can read it.
        keyOrDisposer.acquireUnconditionally(by: currentThreadID)
        lock.unlock()
        head?()
        for entry in tail { entry.child.dispose() }
        if keyOrDisposer.release() {
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
        guard disposedFlag.isSet, heldOneChildAtMost,
            !keyOrDisposer.isOwned
        else { return false }
        heldOneChildAtMost = false
        pruneShift = 0
        disposedFlag.store(false)  // the only reference: as exclusive as the lock
        return true
    }

    /// A second `dispose()`: waits until the first has disposed every child, unless that would deadlock.
    @inlinable
    func waitForDisposer(_ me: UInt) {
        let disposer = keyOrDisposer.owner
        if disposer == 0 || disposer == me { return }
        waitForDisposerSlow(disposer)
    }

    // The slow paths, `wakeWaitingDisposers()` and `waitForDisposerSlow(_:)`, are in RuntimeAssumptions.swift
    // (declared not to let `self` escape).
}
