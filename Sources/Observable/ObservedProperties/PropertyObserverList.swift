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
///
/// Checked `Sendable`: its one field is the list, whose conformance states the owner-isolation contract
/// that also covers the box's `deinit` (the owner's).
@usableFromInline
final class PropertyObserverListBox<Value>: Sendable {
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
/// - the engine's ``ConfinedDelivery`` holds the disposal fence: a delivery publishes its thread, and
///   calls each observer only if its ``SubscriberFlags`` say it was not disposed; a disposer marks the
///   flags, then waits — only while its own observer's callback runs on another thread. Nothing reaches
///   an observer after `dispose()` returns, and a disposer never waits for another observer's callback
///   (guarantee 2 of <doc:ThreadingAndLifetimes>; the proof is ``ConfinedDelivery``'s). Disposing from
///   inside a delivery on the same thread returns at once;
/// - the disposer then releases the observer's closures (a disposer inside a delivery of this list
///   defers that to the end of the delivery, since the closure may be running) and asks the list to
///   compact; the owner drops released observers from its list at its next delivery or subscription.
///
/// Cost of a set with observers: one atomic exchange (the start of the delivery), a plain store and a
/// load per observer (the fence's asymmetric half), the calls. The
/// hot path does no reference counting: the list holds its entries and entries hold their handlers with
/// manual (`Unmanaged`) ownership, which the rules above keep alive while they are used. Owner-only
/// state is marked `@exclusivity(unchecked)`: it is confined to the owner by the same rules.
///
/// A set made from inside an observer (reentrancy) is queued and delivered after the current one, so
/// every observer sees the sets in order and never runs twice at once.
@usableFromInline
final class PropertyObserverList<Value>: AnyPropertyObserverList, @unchecked Sendable {
    // Safety: the owner-only state below is touched only on the owning object's isolation (the contract of
    // `@Observed`: sets, reads and subscriptions happen there); disposers on other threads touch only
    // `delivery` (the engine's), as the type's notes lay out. `first` and `rest` own one retain of each entry.
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

    /// Shared with disposers: the delivering thread, the disposal fence, the requests to compact.
    @usableFromInline let delivery = ConfinedDelivery()

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
        if delivery.takeCompactionRequest() { compact() }
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
        if delivery.takeCompactionRequest() { compact() }
        guard let first else { return }
        beginDelivery()
        callReceive(first, value)
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
        delivery.begin(epoch: epoch)
    }

    @inlinable
    func endDelivery() {
        if !deferredReleases.isEmpty { releaseDeferred() }
        delivery.end(wakingAt: parkingAddress(of: self))
        isDelivering = false
    }

    /// Calls `body` with `entry` unless the entry was disposed, inside the disposal fence.
    @inlinable @inline(__always)
    func call(
        _ entry: Unmanaged<PropertyObserverEntry<Value>>, _ body: (PropertyObserverEntry<Value>) -> Void
    ) {
        entry._withUnsafeGuaranteedRef { observer in
            delivery.callUnlessDisposed(Self.id(of: entry), observer.flags, wakingAt: parkingAddress(of: self)) {
                body(observer)
            }
        }
    }

    /// `call(entry) { $0.receive(value) }`, without the closure: the set's delivery to its first observer
    /// stays inline in `didSet`.
    @inlinable @inline(__always)
    func callReceive(_ entry: Unmanaged<PropertyObserverEntry<Value>>, _ value: Value) {
        entry._withUnsafeGuaranteedRef { observer in
            delivery.callUnlessDisposed(Self.id(of: entry), observer.flags, wakingAt: parkingAddress(of: self)) {
                observer.receive(value)
            }
        }
    }

    @inlinable
    func deliver(_ value: Value) {
        if let first { call(first) { $0.receive(value) } }
        if !rest.isEmpty { deliverToRest(value) }
    }

    @usableFromInline
    func deliverToRest(_ value: Value) {
        for entry in rest { call(entry) { $0.receive(value) } }
    }

    @usableFromInline
    func deliverWillSet() {
        if let first { call(first) { $0.receiveWillSet() } }
        for entry in rest { call(entry) { $0.receiveWillSet() } }
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
        delivery.requestCompaction()
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
        if delivery.takeCompactionRequest() { compact() }
        append(entry)
    }

    /// Adds `entry` and sends it `initial`, as one delivery: sets made by the entry's own callback
    /// while it receives `initial` are queued and delivered after it.
    @usableFromInline
    func subscribe(_ entry: PropertyObserverEntry<Value>, initial: Value) {
        if finished {
            if !entry.flags.isDisposed { entry.receive(initial) }
            entry.finish()
            return
        }
        if isDelivering {
            call(.passUnretained(entry)) { $0.receive(initial) }
            pending.append(.add(entry))
            return
        }
        if delivery.takeCompactionRequest() { compact() }
        beginDelivery()
        append(entry)
        call(.passUnretained(entry)) { $0.receive(initial) }
        if !pending.isEmpty { drainPending() }
        endDelivery()
    }

    @usableFromInline
    func append(_ entry: PropertyObserverEntry<Value>) {
        if entry.flags.isDisposedRelaxed { return }
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
        var survivors: ContiguousArray<Unmanaged<PropertyObserverEntry<Value>>> = []
        if let first { survivors.append(first) }
        survivors.append(contentsOf: rest)
        survivors.removeAll { unmanaged in
            let entry = unmanaged.takeUnretainedValue()
            guard entry.flags.isReleased else { return false }
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
        for entry in all { call(.passUnretained(entry)) { $0.finish() } }
        endDelivery()
    }

    // MARK: Disposer side (any thread)

    /// Returns once no callback of `entry` is running on another thread (it waits for nothing else).
    /// Returns `true` when the calling thread itself is delivering on this list.
    @usableFromInline
    func waitForCallback(of entry: PropertyObserverEntry<Value>) -> Bool {
        delivery.waitForCallback(
            Self.id(of: .passUnretained(entry)), flags: entry.flags, parkingAt: parkingAddress(of: self))
    }

    // MARK: AnyPropertyObserverList

    @usableFromInline
    func addDependency(
        willSet: (() -> Void)?, didSet: @escaping () -> Void, finish: @escaping () -> Void
    ) -> any Disposable {
        let entry = PropertyObserverEntry<Value>(channel: self, didSet: didSet, willSet: willSet, finish: finish)
        add(entry)
        return entry
    }

    @usableFromInline
    func addLifetimeObserver(_ finish: @escaping () -> Void) -> any Disposable {
        let entry = PropertyObserverEntry<Value>(channel: self, didSet: {}, willSet: nil, finish: finish)
        add(entry)
        return entry
    }
}

/// A values-only subscriber's callbacks (`observe(\.p).subscribe(next:)`, and every stage that passes values on
/// as values): its closure, and the lifetime it disposes when the owner deinitializes. Immutable, so the
/// owner calls them without reference counting; the entry drops its reference to release them.
///
/// Each callbacks class is at most 40 bytes (malloc's 48-byte class): a subscriber's callbacks hold its
/// closure and its subscription's lifetime, which they end themselves when the owner deinitializes — no
/// closure (and no closure context) is made to end it. Not final: a dependency's callbacks extend it, so
/// that a set reaches every kind but an event subscriber through `next`.
@usableFromInline
class PropertyValueCallbacks<Value> {
    @usableFromInline final let next: (Value) -> Void
    /// `nil` for a dependency.
    @usableFromInline final let lifetime: CompositeDisposable?

    @inlinable
    init(next: @escaping (Value) -> Void, lifetime: CompositeDisposable?) {
        self.next = next
        self.lifetime = lifetime
    }
}

/// A subscriber that takes every event: its closure, and the lifetime it disposes after sending
/// `.completed` when the owner deinitializes.
@usableFromInline
final class PropertyEventCallbacks<Value> {
    @usableFromInline let action: (Event<Value, Never>) -> Void
    @usableFromInline let lifetime: CompositeDisposable

    @inlinable
    init(action: @escaping (Event<Value, Never>) -> Void, lifetime: CompositeDisposable) {
        self.action = action
        self.lifetime = lifetime
    }
}

/// A dependency of a key-path observation or a lifetime observer (see ``AnyPropertyObserverList``): told
/// (without the value) after each set — through `next` — before it when it asks, and when the owner
/// deinitializes.
@usableFromInline
final class PropertyDependencyCallbacks<Value>: PropertyValueCallbacks<Value> {
    @usableFromInline let onWillSet: (() -> Void)?
    @usableFromInline let onFinish: () -> Void

    @usableFromInline
    init(didSet: @escaping () -> Void, onWillSet: (() -> Void)?, onFinish: @escaping () -> Void) {
        self.onWillSet = onWillSet
        self.onFinish = onFinish
        super.init(next: { _ in didSet() }, lifetime: nil)
    }
}

/// Which callbacks an entry holds.
@usableFromInline
enum PropertyObserverKind: UInt8 {
    /// ``PropertyValueCallbacks``.
    case values
    /// ``PropertyEventCallbacks``.
    case events
    /// ``PropertyDependencyCallbacks`` without a `willSet` callback.
    case dependency
    /// ``PropertyDependencyCallbacks`` with one.
    case dependencyWithWillSet
}

/// One observer of an `@Observed` property. It is also the observer's disposable.
///
/// 36 bytes (malloc's 48-byte class): the fields are in the order that packs them (Swift lays a class's
/// stored properties out in declaration order).
@usableFromInline
final class PropertyObserverEntry<Value>: Disposable, @unchecked Sendable {
    // Safety: `handlers` is read by the owner only while `flags` say it is not disposed, and cleared only
    // by whoever marks it disposed first, once no delivery can be running the handlers — see
    // PropertyObserverList.
    // It owns one retain of the handlers (manual, so that reading it costs no reference counting).
    @usableFromInline @exclusivity(unchecked) var handlers: Unmanaged<AnyObject>?
    @usableFromInline let channel: PropertyObserverList<Value>
    /// Disposed; skipped by a delivery since; handlers released (the owner may drop the entry).
    @usableFromInline let flags = SubscriberFlags()
    /// Which class `handlers` is.
    @usableFromInline let kind: PropertyObserverKind

    /// A subscriber's entry (the `observe` fast path): the sink's closure and the subscription's `lifetime`,
    /// which the entry ends itself when the owner deinitializes (sending `.completed` to an event sink first).
    @inlinable
    init(channel: PropertyObserverList<Value>, sink: Sink<Value, Never>, lifetime: CompositeDisposable) {
        self.channel = channel
        switch sink {
        case .values(let next):
            handlers = .passRetained(PropertyValueCallbacks(next: next, lifetime: lifetime) as AnyObject)
            kind = .values
        case .events(let action):
            handlers = .passRetained(PropertyEventCallbacks(action: action, lifetime: lifetime) as AnyObject)
            kind = .events
        }
    }

    /// A dependency's entry (see ``PropertyDependencyCallbacks``).
    @usableFromInline
    init(
        channel: PropertyObserverList<Value>, didSet: @escaping () -> Void, willSet: (() -> Void)?,
        finish: @escaping () -> Void
    ) {
        self.channel = channel
        handlers = .passRetained(
            PropertyDependencyCallbacks<Value>(didSet: didSet, onWillSet: willSet, onFinish: finish) as AnyObject)
        kind = willSet == nil ? .dependency : .dependencyWithWillSet
    }

    deinit {
        handlers?.release()
    }

    /// Whether the observer wants to hear about a set before it happens.
    @inlinable
    var wantsWillSet: Bool { kind == .dependencyWithWillSet }

    /// Called by the list, inside the disposal fence, only while the entry is not disposed.
    ///
    /// `kind` names the class of `handlers`, which is reinterpreted as it without a cast: two cases, each one
    /// closure call, as a `switch` over a sink would be. Always inlined (into ``PropertyObserverList``'s
    /// `callReceive`): left to the optimizer, a set's delivery to its first observer became a call of its
    /// own, about 1 ns more per set (W6).
    @inlinable @inline(__always)
    func receive(_ value: Value) {
        guard let raw = handlers?.toOpaque() else { return }
        if _fastPath(kind != .events) {
            Unmanaged<PropertyValueCallbacks<Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.next(value) }
        } else {
            Unmanaged<PropertyEventCallbacks<Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef {
                $0.action(.next(value))
            }
        }
    }

    /// Called by the list, inside the disposal fence, only while the entry is not disposed.
    @inlinable
    func receiveWillSet() {
        guard wantsWillSet, let raw = handlers?.toOpaque() else { return }
        Unmanaged<PropertyDependencyCallbacks<Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.onWillSet?() }
    }

    /// Called by the owner (inside its finishing delivery) when it deinitializes: a subscriber's entry
    /// sends `.completed` to an event sink and disposes its subscription's lifetime (which disposes this
    /// entry again: a no-op, since it is marked disposed first); a dependency's runs its finish callback.
    @usableFromInline
    func finish() {
        if flags.markDisposed() { return }
        guard let handlers = handlers?.takeRetainedValue() else { return }
        self.handlers = nil
        flags.markReleased()
        switch kind {
        case .values:
            unsafeDowncast(handlers, to: PropertyValueCallbacks<Value>.self).lifetime?.dispose()
        case .events:
            let callbacks = unsafeDowncast(handlers, to: PropertyEventCallbacks<Value>.self)
            callbacks.action(.completed)
            callbacks.lifetime.dispose()
        case .dependency, .dependencyWithWillSet:
            unsafeDowncast(handlers, to: PropertyDependencyCallbacks<Value>.self).onFinish()
        }
    }

    @usableFromInline
    func releaseHandlers() {
        let handlers = self.handlers
        self.handlers = nil
        flags.markReleased()
        handlers?.release()
    }

    @usableFromInline
    var isDisposed: Bool { flags.isDisposed }

    @usableFromInline
    func dispose() {
        let alreadyDisposed = flags.markDisposed()
        let insideDelivery = channel.waitForCallback(of: self)
        if alreadyDisposed { return }
        if insideDelivery {
            // A handler of this list may be on the stack: release when the delivery ends.
            channel.deferredReleases.append(self)
        } else {
            releaseHandlers()
            channel.delivery.requestCompaction()
        }
    }
}
