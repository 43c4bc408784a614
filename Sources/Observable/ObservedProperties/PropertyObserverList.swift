import Synchronization
import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The observer storage of one `@Observed` property, allocated the first time the property is observed.
///
/// Only the property's wrapper holds the box, so the box is deinitialized exactly when the object that
/// owns the property is: that is how observations learn that their object is gone. The box is separate
/// from the ``PropertyObserverList`` because observers keep the list (not the box) alive.
@usableFromInline
final class PropertyObserverListBox<Value> {
    @usableFromInline let channel = PropertyObserverList<Value>()

    @usableFromInline
    init() {}

    deinit {
        channel.finish()
    }
}

/// What a list delivers; reentrant operations are queued as these and run in order.
@usableFromInline
enum PropertyObserverListOperation<Value> {
    case willSet
    case didSet(Value)
    /// An observer added while a delivery was running joins after the operations queued before it.
    case add(PropertyObserverEntry<Value>)
}

/// The type-erased face of a list, for read tracking and lifetime observation.
@usableFromInline
protocol AnyPropertyObserverList: AnyObject {
    /// Adds an observer that is told (without the value) before and after each set, and when the
    /// owner deinitializes. Must be called on the owner's isolation.
    func addDependency(
        willSet: (() -> Void)?, didSet: @escaping () -> Void, finish: @escaping () -> Void
    ) -> any Disposable

    /// Adds an observer that is only told when the owner deinitializes.
    func addLifetimeObserver(_ finish: @escaping () -> Void) -> any Disposable
}

/// The observers of one `@Observed` property and the protocol that delivers sets to them.
///
/// Threading (the contract of `@Observed`): sets, reads and subscriptions happen on the owner's
/// isolation, one at a time, exactly as for a plain stored property — so the observer list and the
/// reentrancy queue are plain variables touched only there. Disposal may happen on any thread; it is the
/// only cross-thread operation and it never touches the list:
///
/// - a delivery publishes its thread in `activeDelivery` with a sequentially consistent store (the
///   owner of the list's ``CallbackRendezvous``), and before each callback enters the observer it is
///   about to call in the rendezvous, then checks that observer's `disposed` flag before calling it;
/// - a disposer sets `disposed` (sequentially consistent), then waits in the rendezvous — only while its
///   own observer's callback runs on another thread. Nothing reaches an observer after `dispose()`
///   returns, and a disposer never waits for another observer's callback (guarantee 2 of
///   <doc:ThreadingAndLifetimes>; the proof is ``CallbackRendezvous``'s). The rendezvous's owner is the
///   delivery the disposer saw: `activeDelivery` carries a bit that alternates per delivery, so a wait
///   ends when that delivery ends — a later delivery sees the flag and skips the observer. Disposing from
///   inside a delivery on the same thread returns at once;
/// - the disposer then releases the observer's closures (a disposer inside a delivery of this list
///   defers that to the end of the delivery, since the closure may be running) and flags the list;
///   the owner drops released observers from its list at its next delivery or subscription.
///
/// Cost of a set with observers: two atomic exchanges (start and end of the delivery), a plain store and
/// a load per observer (the rendezvous's asymmetric fence), the calls. The
/// hot path does no reference counting: the list holds its entries and entries hold their handlers with
/// manual (`Unmanaged`) ownership, which the rules above keep alive while they are used. Owner-only
/// state is marked `@exclusivity(unchecked)`: it is confined to the owner by the same rules.
///
/// A set made from inside an observer (reentrancy) is queued and delivered after the current one, so
/// every observer sees the sets in order and never runs twice at once.
@usableFromInline
final class PropertyObserverList<Value>: AnyPropertyObserverList, @unchecked Sendable {
    // Safety: the owner-only state below is touched only on the owning object's isolation (the contract of
    // `@Observed`: sets, reads and subscriptions happen there); disposers on other threads touch only the
    // atomics and the rendezvous, as the type's notes lay out. `first` and `rest` own one retain of each entry.
    @usableFromInline @exclusivity(unchecked) var first: Unmanaged<PropertyObserverEntry<Value>>?
    @usableFromInline @exclusivity(unchecked) var rest: ContiguousArray<Unmanaged<PropertyObserverEntry<Value>>> = []
    @usableFromInline @exclusivity(unchecked) var isDelivering = false
    @usableFromInline @exclusivity(unchecked) var pending = ReentrantQueue<PropertyObserverListOperation<Value>>()
    /// Entries disposed from inside a delivery on the owner's thread; released when it ends.
    @usableFromInline @exclusivity(unchecked) var deferredReleases: [PropertyObserverEntry<Value>] = []
    /// How many observers want to hear about a set before it happens.
    @usableFromInline @exclusivity(unchecked) var willSetCount = 0
    @usableFromInline @exclusivity(unchecked) var epoch: UInt = 0
    @usableFromInline @exclusivity(unchecked) var finished = false

    // Shared with disposers.
    /// The delivering thread's ID (with an alternating low bit per delivery), or 0.
    @usableFromInline let activeDelivery = Atomic<UInt>(0)
    /// Set by a disposer once an observer may be dropped from the list.
    @usableFromInline let needsCompaction = Atomic<Bool>(false)
    /// The disposal fence: the observer whose callback the owner is running (its entry's address), and
    /// the disposers waiting for it.
    @usableFromInline let rendezvous = CallbackRendezvous()

    @usableFromInline
    init() {}

    deinit {
        first?.release()
        for entry in rest { entry.release() }
    }

    // MARK: Owner side

    /// Called by the wrapper before storing a new value, when `willSetCount != 0`.
    @inlinable @inline(never)
    func willSet() {
        if isDelivering {
            pending.append(.willSet)
            return
        }
        if needsCompaction.load(ordering: .relaxed) { compact() }
        beginDelivery()
        deliverWillSet()
        if !pending.isEmpty { drainPending() }
        endDelivery()
    }

    /// Called by the wrapper after storing `value`.
    @inlinable @inline(never)
    func didSet(_ value: Value) {
        if isDelivering {
            pending.append(.didSet(value))
            return
        }
        if needsCompaction.load(ordering: .relaxed) { compact() }
        guard let first else { return }
        beginDelivery()
        enter(first)
        first._withUnsafeGuaranteedRef { $0.receive(value) }
        if !rest.isEmpty { deliverToRest(value) }
        if !pending.isEmpty { drainPending() }
        endDelivery()
    }

    @inlinable
    static func id(of entry: Unmanaged<PropertyObserverEntry<Value>>) -> UInt {
        UInt(bitPattern: entry.toOpaque())
    }

    @inlinable
    func beginDelivery() {
        isDelivering = true
        epoch &+= 1
        // Sequentially consistent, before the first `enter`: a disposer that finds no delivery needs no
        // barrier (see ``CallbackRendezvous``).
        activeDelivery.store(currentThreadID | (epoch & 1), ordering: .sequentiallyConsistent)
    }

    @inlinable
    func endDelivery() {
        if !deferredReleases.isEmpty { releaseDeferred() }
        rendezvous.exit()
        activeDelivery.store(0, ordering: .sequentiallyConsistent)
        isDelivering = false
        rendezvous.ownerLeft(wakingAt: parkingAddress(of: self))
    }

    /// Publishes that the owner is about to call `entry` (``CallbackRendezvous/enter(_:wakingAt:)``); the
    /// entry checks its `disposed` flag (sequentially consistent) before calling.
    @inlinable
    func enter(_ entry: Unmanaged<PropertyObserverEntry<Value>>) {
        rendezvous.enter(Self.id(of: entry), wakingAt: parkingAddress(of: self))
    }

    @inlinable
    func deliver(_ value: Value) {
        if let first {
            enter(first)
            first._withUnsafeGuaranteedRef { $0.receive(value) }
        }
        if !rest.isEmpty { deliverToRest(value) }
    }

    @usableFromInline
    func deliverToRest(_ value: Value) {
        for entry in rest {
            enter(entry)
            entry._withUnsafeGuaranteedRef { $0.receive(value) }
        }
    }

    @usableFromInline
    func deliverWillSet() {
        if let first {
            enter(first)
            first._withUnsafeGuaranteedRef { $0.receiveWillSet() }
        }
        for entry in rest {
            enter(entry)
            entry._withUnsafeGuaranteedRef { $0.receiveWillSet() }
        }
    }

    @usableFromInline
    func drainPending() {
        while let operation = pending.next() {
            switch operation {
            case .willSet: deliverWillSet()
            case .didSet(let value): deliver(value)
            case .add(let entry): append(entry)
            }
        }
    }

    @usableFromInline
    func releaseDeferred() {
        let entries = deferredReleases
        deferredReleases = []
        for entry in entries { entry.releaseHandlers() }
        needsCompaction.store(true, ordering: .releasing)
    }

    /// Adds `entry` (owner's isolation). During a delivery it joins after what is already queued.
    @usableFromInline
    func add(_ entry: PropertyObserverEntry<Value>) {
        if finished {
            entry.finish()
            return
        }
        if isDelivering {
            pending.append(.add(entry))
            return
        }
        if needsCompaction.load(ordering: .relaxed) { compact() }
        append(entry)
    }

    /// Adds `entry` and sends it `initial`, as one delivery: sets made by the entry's own callback
    /// while it receives `initial` are queued and delivered after it.
    @usableFromInline
    func subscribe(_ entry: PropertyObserverEntry<Value>, initial: Value) {
        if finished {
            entry.receive(initial)
            entry.finish()
            return
        }
        if isDelivering {
            enter(Unmanaged.passUnretained(entry))
            entry.receive(initial)
            pending.append(.add(entry))
            return
        }
        if needsCompaction.load(ordering: .relaxed) { compact() }
        beginDelivery()
        append(entry)
        enter(Unmanaged.passUnretained(entry))
        entry.receive(initial)
        if !pending.isEmpty { drainPending() }
        endDelivery()
    }

    @usableFromInline
    func append(_ entry: PropertyObserverEntry<Value>) {
        if entry.disposed.load(ordering: .relaxed) { return }
        if entry.wantsWillSet { willSetCount += 1 }
        let retained = Unmanaged.passRetained(entry)
        if first == nil {
            first = retained
        } else {
            rest.append(retained)
        }
    }

    /// Drops the observers whose disposers have finished with them.
    @usableFromInline
    func compact() {
        guard needsCompaction.exchange(false, ordering: .acquiringAndReleasing) else { return }
        var survivors: ContiguousArray<Unmanaged<PropertyObserverEntry<Value>>> = []
        if let first { survivors.append(first) }
        survivors.append(contentsOf: rest)
        survivors.removeAll { unmanaged in
            let entry = unmanaged.takeUnretainedValue()
            guard entry.released.load(ordering: .acquiring) else { return false }
            if entry.wantsWillSet { willSetCount -= 1 }
            unmanaged.release()
            return true
        }
        if survivors.isEmpty {
            first = nil
            rest = []
        } else {
            first = survivors.removeFirst()
            rest = survivors
        }
    }

    /// The owner deinitialized: every observer gets its finish callback, once.
    @usableFromInline
    func finish() {
        finished = true
        beginDelivery()
        var all: [PropertyObserverEntry<Value>] = []
        if let first { all.append(first.takeRetainedValue()) }
        for entry in rest { all.append(entry.takeRetainedValue()) }
        for case .add(let entry) in pending.removeAll() { all.append(entry) }
        first = nil
        rest = []
        willSetCount = 0
        for entry in all {
            enter(Unmanaged.passUnretained(entry))
            entry.finish()
        }
        endDelivery()
    }

    // MARK: Disposer side (any thread)

    /// Returns once no callback of `entry` is running on another thread (it waits for nothing else).
    /// Returns `true` when the calling thread itself is delivering on this list.
    @usableFromInline
    func waitForCallback(of entry: PropertyObserverEntry<Value>) -> Bool {
        let observed = activeDelivery.load(ordering: .sequentiallyConsistent)
        if observed == 0 { return false }
        if observed & ~1 == currentThreadID { return true }
        // The rendezvous's owner is the delivery seen here, for as long as it lasts. No `skipped` report is
        // needed: that delivery's end ends the wait, and any later delivery finds the flag set.
        rendezvous.waitForCallback(Self.id(of: .passUnretained(entry)), parkingAt: parkingAddress(of: self)) {
            activeDelivery.load(ordering: .sequentiallyConsistent) == observed ? observed & ~1 : 0
        } skipped: {
            false
        }
        return false
    }

    // MARK: AnyPropertyObserverList

    @usableFromInline
    func addDependency(
        willSet: (() -> Void)?, didSet: @escaping () -> Void, finish: @escaping () -> Void
    ) -> any Disposable {
        let entry = PropertyObserverEntry<Value>(
            channel: self, sink: Sink { _ in didSet() }, onWillSet: willSet, onFinish: finish)
        add(entry)
        return entry
    }

    @usableFromInline
    func addLifetimeObserver(_ finish: @escaping () -> Void) -> any Disposable {
        let entry = PropertyObserverEntry<Value>(channel: self, sink: Sink { _ in }, onWillSet: nil, onFinish: finish)
        add(entry)
        return entry
    }
}

/// The callbacks of one observer. Immutable, so the owner calls them without reference counting; the
/// entry drops its reference to release them.
@usableFromInline
final class PropertyObserverCallbacks<Value> {
    /// Receives the values set (a subscriber's sink directly, on the `observe` fast path).
    @usableFromInline let sink: Sink<Value, Never>
    @usableFromInline let onWillSet: (() -> Void)?
    @usableFromInline let onFinish: (() -> Void)?

    @usableFromInline
    init(sink: Sink<Value, Never>, onWillSet: (() -> Void)?, onFinish: (() -> Void)?) {
        self.sink = sink
        self.onWillSet = onWillSet
        self.onFinish = onFinish
    }
}

/// One observer of an `@Observed` property. It is also the observer's disposable.
@usableFromInline
final class PropertyObserverEntry<Value>: Disposable, @unchecked Sendable {
    // Safety: `handlers` is read by the owner only while `disposed` is false, and cleared only by
    // whoever wins `disposed`, once no delivery can be running the handlers — see PropertyObserverList.
    // It owns one retain of the handlers (manual, so that reading it costs no reference counting).
    @usableFromInline @exclusivity(unchecked) var handlers: Unmanaged<PropertyObserverCallbacks<Value>>?
    @usableFromInline let wantsWillSet: Bool
    @usableFromInline let channel: PropertyObserverList<Value>
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// Set once the handlers are released: the owner may drop the entry.
    @usableFromInline let released = Atomic<Bool>(false)

    @usableFromInline
    init(
        channel: PropertyObserverList<Value>, sink: Sink<Value, Never>, onWillSet: (() -> Void)?,
        onFinish: (() -> Void)?
    ) {
        self.channel = channel
        self.handlers = .passRetained(PropertyObserverCallbacks(sink: sink, onWillSet: onWillSet, onFinish: onFinish))
        self.wantsWillSet = onWillSet != nil
    }

    deinit {
        handlers?.release()
    }

    @inlinable
    func receive(_ value: Value) {
        if disposed.load(ordering: .sequentiallyConsistent) { return }
        handlers?._withUnsafeGuaranteedRef { $0.sink.send(.next(value)) }
    }

    @inlinable
    func receiveWillSet() {
        if disposed.load(ordering: .sequentiallyConsistent) { return }
        handlers?._withUnsafeGuaranteedRef { $0.onWillSet?() }
    }

    /// Called by the owner (inside its finishing delivery) when it deinitializes.
    @usableFromInline
    func finish() {
        if disposed.exchange(true, ordering: .sequentiallyConsistent) { return }
        guard let handlers = handlers?.takeRetainedValue() else { return }
        self.handlers = nil
        released.store(true, ordering: .releasing)
        handlers.onFinish?()
    }

    @usableFromInline
    func releaseHandlers() {
        let handlers = self.handlers
        self.handlers = nil
        released.store(true, ordering: .releasing)
        handlers?.release()
    }

    @usableFromInline
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline
    func dispose() {
        let alreadyDisposed = disposed.exchange(true, ordering: .sequentiallyConsistent)
        let insideDelivery = channel.waitForCallback(of: self)
        if alreadyDisposed { return }
        if insideDelivery {
            // A handler of this list may be on the stack: release when the delivery ends.
            channel.deferredReleases.append(self)
        } else {
            releaseHandlers()
            channel.needsCompaction.store(true, ordering: .releasing)
        }
    }
}
