import TetherEngine
import TetherShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps very long chains of operators (a hundred thousand `map`s, ten thousand nested `concat`s, built
/// by reducing over an array) from overflowing the stack, at almost no cost to short ones.
///
/// Each operator's start subscribes its upstream from inside its own start, and each stage's sink calls
/// the next one, so both subscribing and delivering nest one level of calls per operator. The trampoline
/// bounds that nesting without changing what a short chain does:
///
/// - `Signal.start` counts the starts nested on the thread (one thread-local read per start). The
///   outermost start on a thread is the *root*: it records where the stack was.
/// - Every ``checkInterval``-th nested start is a *boundary*: its sink is wrapped so that events crossing
///   it check the stack too. A chain shorter than that has no boundary, and its events pay nothing.
/// - At a boundary (a start, or an event crossing a boundary sink), if the stack has grown more than
///   ``stackBudget`` bytes past the root, the work is queued on the thread instead of run; the root runs
///   the queue, in order, once its own work returns — still inside the `subscribe` or `send` that
///   started it, so both stay synchronous for their caller.
///
/// What changes for chains that deep: queued work runs after the stages upstream of the boundary
/// have returned (an upstream stage that sends two events finishes before the first crosses the
/// boundary; an upstream start returns before the rest of the chain is subscribed). Order per
/// subscription is kept; a source that ends its lifetime right after its terminal event ends only the
/// part upstream of the boundary, so the queued events and the terminal event still arrive; a queued
/// event is dropped if the subscription was disposed meanwhile — see ``DeepChainBoundary``.
@usableFromInline
package struct DeepChainTrampoline {
    /// Starts nested on this thread since the root (0: no root).
    @usableFromInline var depth: Int = 0
    /// The stack address of the root's frame.
    @usableFromInline var rootStack: UInt = 0
    /// Work deferred to the root, run in order.
    var queue: [() -> Void] = []
    var head = 0
    /// Whether `queue` holds work not yet run.
    @usableFromInline var hasWork = false
    /// Values whose release was deferred by a ``DeepChainLink`` (see ``releaseLater(_:)``).
    var releases: [Any] = []
    var isReleasing = false

    /// Every this many nested starts, one is a boundary (a power of two minus one is used as the mask).
    @usableFromInline static let checkMask = 127
    /// How far the stack may grow past the root before boundaries queue their work (in bytes).
    @usableFromInline static let stackBudget: UInt = 512 * 1024

    /// Only for its destructor, which frees a thread's state when the thread ends; the state is read
    /// through a C thread-local slot (`tether_deep_chain_state`).
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            // Cleared first: a start made while the state is torn down (a queued closure's release) makes
            // a new one, which the key's next destructor round frees.
            if tether_deep_chain_state() == raw { tether_set_deep_chain_state(nil) }
            let state = raw.assumingMemoryBound(to: DeepChainTrampoline.self)
            state.deinitialize(count: 1)
            state.deallocate()
        }
        precondition(status == 0, "Tether: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's trampoline (created on first use, freed when the thread ends).
    @usableFromInline
    static func current() -> UnsafeMutablePointer<DeepChainTrampoline> {
        if let raw = tether_deep_chain_state() {
            return raw.assumingMemoryBound(to: DeepChainTrampoline.self)
        }
        return makeCurrent()
    }

    /// Makes this thread's trampoline, registered for freeing when the thread ends.
    @inline(never)
    static func makeCurrent() -> UnsafeMutablePointer<DeepChainTrampoline> {
        let state = UnsafeMutablePointer<DeepChainTrampoline>.allocate(capacity: 1)
        state.initialize(to: DeepChainTrampoline())
        pthread_setspecific(key, state)
        tether_set_deep_chain_state(state)
        return state
    }

    /// Where the stack is now (stacks grow down on every platform Swift runs on): the calling frame's
    /// address, from C. The address of a Swift local would do without sanitizers, but AddressSanitizer
    /// keeps such locals in a "fake stack" on the heap, and there the measurement never triggered: the
    /// deep-chain tests overflowed the stack in the leak check.
    @inline(__always) @usableFromInline
    static func stackAddress() -> UInt {
        UInt(tether_stack_address())
    }

    /// Whether work at the current stack position must be queued for the root.
    @usableFromInline
    static func mustDefer(_ state: UnsafeMutablePointer<DeepChainTrampoline>) -> Bool {
        let here = stackAddress()
        let root = state.pointee.rootStack
        return root > here && root - here > stackBudget
    }

    /// Queues `work` for the root of this thread.
    @usableFromInline
    static func enqueue(_ state: UnsafeMutablePointer<DeepChainTrampoline>, _ work: @escaping () -> Void) {
        state.pointee.queue.append(work)
        state.pointee.hasWork = true
    }

    /// Releases `value` without nesting: a release that happens while another deferred release runs on
    /// this thread is queued and run by the outer one's loop, so a chain of links is freed iteratively.
    static func releaseLater(_ value: consuming Any) {
        let state = current()
        // Moved, not copied: a copy left in this frame would be the last reference, released here.
        state.pointee.releases.append(consume value)
        if state.pointee.isReleasing { return }
        state.pointee.isReleasing = true
        while let next = state.pointee.releases.popLast() { _ = consume next }
        state.pointee.isReleasing = false
    }

    /// Run by the root once its own work has returned: runs every queued item (items may queue more),
    /// each as a start nested once in the root.
    @usableFromInline
    static func drain(_ state: UnsafeMutablePointer<DeepChainTrampoline>) {
        let depth = state.pointee.depth
        state.pointee.depth = 1
        while state.pointee.head < state.pointee.queue.count {
            let work = state.pointee.queue[state.pointee.head]
            state.pointee.head += 1
            work()
        }
        state.pointee.queue.removeAll()
        state.pointee.head = 0
        state.pointee.hasWork = false
        state.pointee.depth = depth
    }

    /// Runs `work` as the root of this thread's trampoline if there is none, then runs what it queued.
    @usableFromInline
    static func runAsRoot(_ state: UnsafeMutablePointer<DeepChainTrampoline>, _ work: () -> Void) {
        state.pointee.depth = 1
        state.pointee.rootStack = stackAddress()
        work()
        if state.pointee.hasWork { drain(state) }
        state.pointee.depth = 0
    }

    /// Runs `work` as a root of its own, nested in whatever this thread is running, and runs what it
    /// queued before returning — for a caller that blocks until `work`'s events arrive (`first()` from
    /// inside a callback): work queued for the enclosing root would run only after that caller returns.
    /// The stack budget still counts from the enclosing root, so nesting does not widen it.
    static func runAsNestedRoot(_ work: () -> Void) {
        let state = current()
        let saved = state.pointee
        state.pointee.queue = []
        state.pointee.head = 0
        state.pointee.hasWork = false
        state.pointee.depth = 1
        if saved.depth == 0 { state.pointee.rootStack = stackAddress() }
        work()
        if state.pointee.hasWork { drain(state) }
        state.pointee.depth = saved.depth
        state.pointee.rootStack = saved.rootStack
        state.pointee.queue = saved.queue
        state.pointee.head = saved.head
        state.pointee.hasWork = saved.hasWork
    }
}

/// A reference to the next stage of a chain (an upstream signal, a downstream sink) whose release does
/// not nest: freeing a chain of a hundred thousand stages releases each one from inside the previous
/// one's release, which overflows the stack unless some links cut the recursion.
@usableFromInline
final class DeepChainLink<Value> {
    // Safety: set once by `init`, read by starts and events, cleared only by `deinit` (no other reference).
    @usableFromInline @exclusivity(unchecked) var storage: Value?

    @usableFromInline init(_ value: Value) { storage = value }

    @inlinable var value: Value { storage.unsafelyUnwrapped }

    // The queued copy must be the last reference, or the release would still nest here.
    deinit { DeepChainTrampoline.releaseLater(storage.take() as Any) }
}

extension Signal {
    /// This signal, or — for one operator in 64 — a signal that holds it through a ``DeepChainLink``.
    ///
    /// An operator holds its upstream signal, so a chain of a hundred thousand operators is freed by
    /// nested releases, one per operator, which overflows the stack. Linking every operator would cost
    /// each one an allocation; linking one in 64 of those a thread makes (counted per thread, so a long
    /// chain built on one thread gets a link at least every 64 operators) bounds the nesting to a few hundred
    /// releases at the cost of a thread-local increment (`tether_count_operator_made()`: no atomic
    /// read-modify-write, which cost W3 — an operator made per subscription — a locked `xadd` per cycle).
    @inlinable
    package var linkedForDeepChains: Signal {
        if _slowPath(tether_count_operator_made() & 63 == 1) {
            return linked()
        }
        return self
    }

    @usableFromInline
    func linked() -> Signal {
        let link = DeepChainLink(self)
        // The handler is called directly: the wrapper is not a stage of its own (for the trampoline's
        // count or for the debugging tools, which see this signal's own `debugInfo` — it keeps its annex).
        return Signal(annex: annex, unsafeStart: { sink, lifetime in link.value.startHandler(sink, lifetime) })
    }
}

/// The state of one boundary sink (see ``Sink/deepChainBoundary(in:)``): how many of its events wait in
/// a trampoline's queue, and whether the upstream part ended without a terminal event.
///
/// The part of the chain upstream of a boundary runs in a lifetime of its own, a child of the
/// subscription's: a source that sends its values and its terminal event, then disposes its lifetime,
/// ends only that part. Its queued events still reach the downstream part, which the boundary ends
/// (disposes the subscription's lifetime) right after delivering the terminal event — in the order it
/// would have happened without the queue. If the upstream part ends without a terminal event, the
/// boundary ends the downstream part once the events queued before that are delivered.
///
/// A queued event is dropped if the subscription's lifetime was disposed meanwhile (from downstream —
/// a subscriber disposing in its callback, `take(1)` — or by the subscriber's `dispose()`).
@usableFromInline
final class DeepChainBoundary: Sendable {
    /// The queued events not yet run, closed once the upstream part ended.
    @usableFromInline let queued = DrainLatch()
    @usableFromInline let lifetime: CompositeDisposable

    @usableFromInline init(_ lifetime: CompositeDisposable) { self.lifetime = lifetime }

    /// An event is about to be queued.
    @usableFromInline
    func willQueue() {
        queued.enter()
    }

    /// A queued event ran (or was dropped): the last one ends the subscription if upstream has ended.
    @usableFromInline
    func didRunQueued() {
        if queued.leave() { lifetime.dispose() }
    }

    /// The upstream part's lifetime ended: the subscription ends now, or after the queued events.
    @usableFromInline
    func upstreamEnded() {
        if queued.close() { lifetime.dispose() }
    }
}

extension Sink {
    /// A sink that delivers to `self` directly while the stack has room, and queues events for the
    /// thread's trampoline root when it has grown too deep (see ``DeepChainTrampoline``). Returns it
    /// with the lifetime to start the upstream part in (see ``DeepChainBoundary``).
    ///
    /// The boundary keeps its downstream's form: a values-only sink gets a values-only boundary, so the
    /// stages upstream of it (which pick their own form from their downstream's, as `map` does) stay on
    /// the values path too. Were it an event sink, every stage above the first boundary — all but the
    /// last 127 stages of a chain of a thousand `map`s — would make and match an event per value. A
    /// values-only subscriber ignores the terminal event, so that boundary needs none: the upstream
    /// part's end (``DeepChainBoundary/upstreamEnded()``) ends the subscription, after its queued values.
    @usableFromInline
    func deepChainBoundary(in lifetime: CompositeDisposable) -> (Sink, CompositeDisposable) {
        let boundary = DeepChainBoundary(lifetime)
        let upstreamLifetime = CompositeDisposable(partOf: lifetime)
        upstreamLifetime.add { boundary.upstreamEnded() }
        lifetime.add(upstreamLifetime)
        switch self {
        case .values(let next):
            let link = DeepChainLink(next)
            let sink = Sink.values { value in
                boundary.cross(value, endsSubscription: false, to: link.value)
            }
            return (sink, upstreamLifetime)
        case .events(let action):
            let link = DeepChainLink(action)
            let sink = Sink { event in
                boundary.cross(event, endsSubscription: event.isTerminal, to: link.value)
            }
            return (sink, upstreamLifetime)
        }
    }
}

extension DeepChainBoundary {
    /// Delivers `item` (a value or an event) to the downstream part: at once while the stack has room,
    /// else queued for the thread's trampoline root. A terminal event (`endsSubscription`) ends the
    /// subscription once delivered.
    @inline(__always) @usableFromInline
    func cross<Item>(_ item: Item, endsSubscription: Bool, to deliver: @escaping (Item) -> Void) {
        let state = DeepChainTrampoline.current()
        if state.pointee.depth == 0 {
            DeepChainTrampoline.runAsRoot(state) { deliver(item) }
            if endsSubscription { lifetime.dispose() }
        } else if !DeepChainTrampoline.mustDefer(state) {
            deliver(item)
            if endsSubscription { lifetime.dispose() }
        } else {
            if lifetime.isDisposed { return }
            willQueue()
            let lifetime = self.lifetime
            DeepChainTrampoline.enqueue(state) {
                if !lifetime.isDisposed {
                    deliver(item)
                    if endsSubscription { lifetime.dispose() }
                }
                self.didRunQueued()
            }
        }
    }
}
