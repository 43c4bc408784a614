import Synchronization

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
    /// Identifies one child added to a ``CompositeDisposable``, for ``CompositeDisposable/remove(_:)``.
    public struct Key: Hashable, Sendable {
        @usableFromInline let rawValue: UInt64
        @inlinable init(rawValue: UInt64) { self.rawValue = rawValue }
    }

    /// A child: a disposable, or a closure (stored as is: no wrapper object, and when it was created in
    /// specialized code, disposing runs specialized code — no generic-metadata lookups).
    @usableFromInline
    enum Child {
        case disposable(any Disposable)
        case action(@Sendable () -> Void)

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
    /// Mirrors `disposed` for lock-free reads (`Signal(values:)` checks it for every value).
    @usableFromInline let disposedFlag = Atomic<Bool>(false)
    /// Whether this is (part of) a subscription whose subscriber someone else holds — a subject or an
    /// ``Observer`` subscribed as an observer. Then a recipe dropping its ``Observer`` does not end the
    /// subscription: it lives as long as that subscriber does (RAC 2.5's rule; see ``Observer``).
    @usableFromInline package let subscriberHeldElsewhere: Bool
    /// The thread disposing the children (0: not yet started, or finished); bit 0 is set when another
    /// thread waits for it to finish.
    @usableFromInline let disposingThread = Atomic<UInt>(0)
    // All guarded by `lock`. The first child lives inline: most composites hold one or two.
    @usableFromInline @exclusivity(unchecked) var disposed = false
    @usableFromInline @exclusivity(unchecked) var nextKey: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var first: (key: UInt64, child: Child)?
    @usableFromInline @exclusivity(unchecked) var rest: [(key: UInt64, child: Child)] = []
    /// Guarded by `lock`: the size of `rest` at which `add(_:)` prunes finished children.
    @usableFromInline @exclusivity(unchecked) var pruneAt = 32

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
    public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

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
        lock.withLock { rest.count >= pruneAt }
    }

    /// Drops the children that were disposed elsewhere (a subscription that completed on its own), so
    /// that a long-lived composite holds only what is live. Amortized: it runs when the number of
    /// children doubled since the last pass. `isDisposed` is asked outside the lock.
    @usableFromInline
    func prune() {
        lock.lock()
        var candidates: [(key: UInt64, disposable: any Disposable)] = []
        if let head = first, case .disposable(let disposable) = head.child {
            candidates.append((head.key, disposable))
        }
        for entry in rest {
            if case .disposable(let disposable) = entry.child { candidates.append((entry.key, disposable)) }
        }
        lock.unlock()
        let finished = Set(candidates.filter { $0.disposable.isDisposed }.map(\.key))
        lock.lock()
        if !finished.isEmpty {
            if let head = first, finished.contains(head.key) { first = nil }
            rest.removeAll { finished.contains($0.key) }
        }
        pruneAt = max(32, rest.count * 2)
        lock.unlock()
    }

    @inlinable
    func add(child: Child) -> Key? {
        lock.lock()
        if disposed {
            lock.unlock()
            child.dispose()
            return nil
        }
        let key = nextKey
        nextKey &+= 1
        if first == nil {
            first = (key, child)
        } else {
            rest.append((key, child))
        }
        lock.unlock()
        return Key(rawValue: key)
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
        if let current = first, current.key == key.rawValue {
            first = nil
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
    /// bag.count   // 2
    /// ```
    public var count: Int {
        prune()
        return lock.withLock { (first == nil ? 0 : 1) + rest.count }
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
        if disposed {
            lock.unlock()
            waitForDisposer(currentThreadID)
            return
        }
        disposed = true
        disposedFlag.store(true, ordering: .releasing)
        let head = first
        let tail = rest
        if head == nil && tail.isEmpty {
            // Nothing to dispose: nothing for a second disposer to wait for.
            lock.unlock()
            return
        }
        disposingThread.store(currentThreadID, ordering: .relaxed)
        first = nil
        rest = []
        lock.unlock()
        head?.child.dispose()
        for entry in tail { entry.child.dispose() }
        if disposingThread.exchange(0, ordering: .acquiringAndReleasing) & 1 != 0 {
            wakeWaitingDisposers()
        }
    }

    // The slow paths are out of line and declared `notEscaping`: they use this object's address as a
    // number (the key waiters park on) and keep nothing. Otherwise the optimizer must assume that `self`
    // escapes from every `dispose()`, and a subscription's lifetime that never leaves its subscriber (a
    // cold signal subscribed for its values only) could not be allocated on the stack.

    /// Wakes the threads waiting in a second `dispose()`.
    // (swift-format would rewrite the attribute below as `notEscapingself.**`.)
    // swift-format-ignore
    @usableFromInline
    @_effects(notEscaping self.**)
    @inline(never)
    func wakeWaitingDisposers() {
        ParkingLot.unparkAll(parkingAddress(of: self))
    }

    /// A second `dispose()`: waits until the first has disposed every child, unless that would deadlock.
    @inlinable
    func waitForDisposer(_ me: UInt) {
        let disposer = disposingThread.load(ordering: .acquiring) & ~1
        if disposer == 0 || disposer == me { return }
        waitForDisposerSlow(disposer)
    }

    // (swift-format would rewrite the attribute below as `notEscapingself.**`.)
    // swift-format-ignore
    @usableFromInline
    @_effects(notEscaping self.**)
    @inline(never)
    func waitForDisposerSlow(_ disposer: UInt) {
        // Flag the wait (bit 0), unless the first disposer finished meanwhile.
        var word = disposingThread.load(ordering: .relaxed)
        while word != 0 && word & 1 == 0 {
            let (exchanged, original) = disposingThread.compareExchange(
                expected: word, desired: word | 1, ordering: .acquiringAndReleasing)
            if exchanged { break }
            word = original
        }
        if word == 0 { return }
        let address = parkingAddress(of: self)
        guard
            let wait = WaitGraph.shared.begin(waitingFor: disposer, breakable: true, parkingAddress: address)
        else { return }
        defer { WaitGraph.shared.end(wait) }
        while disposingThread.load(ordering: .acquiring) != 0, !wait.isBroken {
            ParkingLot.park(on: address) {
                disposingThread.load(ordering: .relaxed) != 0 && !wait.isBroken
            }
        }
    }
}
