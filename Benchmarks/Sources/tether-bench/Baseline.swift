import CMallInfo
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The hand-written versions of every workload: the physical limit that the ratios divide by.
// A minimal thread-safe observer list (a mutex and an array of closures, snapshotted under the mutex
// and called outside it) and the pipeline fused into one closure. No operator objects, no events.

/// Accumulates what the observers saw; returned as the checksum.
/// Its fields skip the runtime exclusivity check (every implementation uses it the same way).
final class Counter: @unchecked Sendable {
    @exclusivity(unchecked) var sum: UInt64 = 0
    @exclusivity(unchecked) var count: UInt64 = 0

    var checksum: UInt64 { sum &* 31 &+ count }
}

/// A pthread mutex on the heap (a `pthread_mutex_t` must not move).
final class PthreadMutex: @unchecked Sendable {
    let raw: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        raw = .allocate(capacity: 1)
        raw.initialize(to: pthread_mutex_t())
        pthread_mutex_init(raw, nil)
    }

    deinit {
        pthread_mutex_destroy(raw)
        raw.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(raw) }
    @inline(__always) func unlock() { pthread_mutex_unlock(raw) }
}

/// The minimal thread-safe observer list: add returns a token that removes the closure again.
/// Its state is guarded by the mutex, so it opts out of the runtime exclusivity check, as an expert's
/// hand-written list would.
final class ObserverList<Value>: @unchecked Sendable {
    typealias Entry = (id: Int, action: (Value) -> Void)
    let mutex = PthreadMutex()
    @exclusivity(unchecked) var entries: [Entry] = []
    @exclusivity(unchecked) var nextID = 0

    @discardableResult
    func add(_ action: @escaping (Value) -> Void) -> ObserverToken<Value> {
        mutex.lock()
        let id = nextID
        nextID &+= 1
        entries.append((id, action))
        mutex.unlock()
        return ObserverToken(list: self, id: id)
    }

    func remove(_ id: Int) {
        mutex.lock()
        if let index = entries.lastIndex(where: { $0.id == id }) { entries.remove(at: index) }
        mutex.unlock()
    }

    @inline(__always)
    func send(_ value: Value) {
        mutex.lock()
        let snapshot = entries
        mutex.unlock()
        for entry in snapshot { entry.action(value) }
    }
}

/// What `ObserverList.add` returns: disposing removes the observer.
final class ObserverToken<Value> {
    weak var list: ObserverList<Value>?
    let id: Int

    init(list: ObserverList<Value>, id: Int) {
        self.list = list
        self.id = id
    }

    func dispose() {
        list?.remove(id)
        list = nil
    }
}

/// Fused operator state (W4's latest values, W5's generation), serialized by its sources.
final class PairState {
    @exclusivity(unchecked) var a = 0
    @exclusivity(unchecked) var b = 0
    @exclusivity(unchecked) var hasA = false
    @exclusivity(unchecked) var hasB = false
}

// MARK: - Property baselines (W6, W9)

/// W6 with 0 observers: the floor.
final class PlainModel {
    var value = 0
}

/// W6: a hand-written observable property: didSet calls an optional closure.
final class DidSetModel {
    var onChange: ((Int) -> Void)?
    var value = 0 {
        didSet { onChange?(value) }
    }
}

/// W6 `MutableProperty` baseline: a mutex-protected value that calls a closure after each set.
final class LockedProperty: @unchecked Sendable {
    let mutex = PthreadMutex()
    @exclusivity(unchecked) var storage = 0
    var onChange: ((Int) -> Void)?

    var value: Int {
        get {
            mutex.lock()
            defer { mutex.unlock() }
            return storage
        }
        set {
            mutex.lock()
            storage = newValue
            let action = onChange
            mutex.unlock()
            action?(newValue)
        }
    }
}

// MARK: - Cold sources (W8)

/// The one-heap-object cold source floor: one allocation per subscription, a loop, completion.
final class ColdRangeSource {
    let range: Range<Int>

    init(_ range: Range<Int>) { self.range = range }

    @inline(__always)
    func start(next: (Int) -> Void, completed: () -> Void) {
        for value in range { next(value) }
        completed()
    }
}

/// Forces the allocation to happen (an object returned from a non-inlined function cannot be
/// promoted to the stack).
@inline(never)
func makeColdRangeSource(_ range: Range<Int>) -> ColdRangeSource {
    ColdRangeSource(range)
}

/// W5: the cancellation token of one inner subscription.
final class Cancellation {
    @exclusivity(unchecked) var cancelled = false
}

@inline(never)
func makeCancellation() -> Cancellation { Cancellation() }

/// W5: the current inner subscription.
final class SwitchState {
    @exclusivity(unchecked) var current: Cancellation?
}

// MARK: - Workloads

enum Baseline {
    static func w1(_ n: Int) -> () -> UInt64 {
        let list = ObserverList<Int>()
        let counter = Counter()
        list.add { value in
            let a = value &+ 1
            if a % 2 == 0 { counter.sum &+= UInt64(a &* 2) }
        }
        return {
            for value in 0..<n { list.send(value) }
            return counter.checksum
        }
    }

    static func w2(subscribers: Int, values: Int) -> () -> UInt64 {
        let list = ObserverList<Int>()
        let counter = Counter()
        for _ in 0..<subscribers { list.add { counter.sum &+= UInt64($0) } }
        return {
            for value in 0..<values { list.send(value) }
            return counter.checksum
        }
    }

    static func w3(_ n: Int) -> () -> UInt64 {
        let list = ObserverList<Int>()
        let counter = Counter()
        return {
            for _ in 0..<n {
                let token = list.add { counter.sum &+= UInt64($0 &+ 1) }
                token.dispose()
                counter.count &+= 1
            }
            list.send(1)  // nobody listens any more
            return counter.checksum
        }
    }

    /// The subscriptions are disposed newest first (after the second reading): each removal is then at the end
    /// of the list, where oldest first would make the teardown quadratic (likewise in every `…Live`).
    static func w3Live(_ count: Int, _ heap: () -> Int) -> Int {
        let list = ObserverList<Int>()
        let counter = Counter()
        var tokens: [ObserverToken<Int>] = []
        tokens.reserveCapacity(count)
        let before = heap()
        for _ in 0..<count { tokens.append(list.add { counter.sum &+= UInt64($0 &+ 1) }) }
        let after = heap()
        for token in tokens.reversed() { token.dispose() }  // newest first: fast
        return after - before
    }

    static func w4(_ n: Int) -> () -> UInt64 {
        let a = ObserverList<Int>()
        let b = ObserverList<Int>()
        let counter = Counter()
        let state = PairState()
        a.add { value in
            state.a = value
            state.hasA = true
            if state.hasB { counter.sum &+= UInt64(state.a &+ state.b) }
        }
        b.add { value in
            state.b = value
            state.hasB = true
            if state.hasA { counter.sum &+= UInt64(state.a &+ state.b) }
        }
        return {
            for value in 0..<n {
                if value & 1 == 0 { a.send(value) } else { b.send(value) }
            }
            return counter.checksum
        }
    }

    /// The reference: each inner signal is a one-heap-object cold source (as W8's floor), its
    /// subscription a one-heap-object cancellation token; a new inner cancels the previous token.
    static func w5(outer n: Int, inner: Int) -> () -> UInt64 {
        let outer = ObserverList<ColdRangeSource>()
        let counter = Counter()
        let state = SwitchState()
        outer.add { source in
            state.current?.cancelled = true
            let token = makeCancellation()
            state.current = token
            source.start(
                next: { value in if !token.cancelled { counter.sum &+= UInt64(value) } },
                completed: { if state.current === token { state.current = nil } })
        }
        return {
            for index in 0..<n { outer.send(makeColdRangeSource(index &* inner..<(index &+ 1) &* inner)) }
            return counter.checksum
        }
    }

    /// The physical limit: the outer value is a range, the switch a generation counter, all fused.
    static func w5Fused(outer n: Int, inner: Int) -> () -> UInt64 {
        let outer = ObserverList<Range<Int>>()
        let counter = Counter()
        let state = PairState()
        outer.add { range in
            state.a &+= 1
            let current = state.a
            for value in range {
                guard state.a == current else { break }
                counter.sum &+= UInt64(value)
            }
        }
        return {
            for index in 0..<n { outer.send(index &* inner..<(index &+ 1) &* inner) }
            return counter.checksum
        }
    }

    // W6

    static func w6Plain(_ n: Int) -> () -> UInt64 {
        let model = PlainModel()
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return UInt64(model.value)
        }
    }

    static func w6DidSetNoObserver(_ n: Int) -> () -> UInt64 {
        let model = DidSetModel()
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return UInt64(model.value)
        }
    }

    static func w6DidSet(_ n: Int) -> () -> UInt64 {
        let model = DidSetModel()
        let counter = Counter()
        model.onChange = { counter.sum &+= UInt64($0) }
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return counter.checksum
        }
    }

    static func w6Locked(_ n: Int) -> () -> UInt64 {
        let property = LockedProperty()
        let counter = Counter()
        property.onChange = { counter.sum &+= UInt64($0) }
        return {
            for value in 1...n { property.value = value }
            return counter.checksum
        }
    }

    static func w9(_ n: Int, others: Int) -> () -> UInt64 {
        let counter = Counter()
        let sink = Counter()
        var population: [DidSetModel] = []
        for _ in 0..<others {
            let other = DidSetModel()
            other.onChange = { sink.sum &+= UInt64($0) }
            population.append(other)
        }
        let model = DidSetModel()
        model.onChange = { counter.sum &+= UInt64($0) }
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            withExtendedLifetime(population) {}
            return counter.checksum
        }
    }

    // W7

    static func w7Raw(_ n: Int, filtered: Bool) -> () -> UInt64 {
        let center = NotificationCenter()
        let name = Notification.Name("tether.bench.w7")
        let sender = NSObject()
        let counter = Counter()
        let token = center.addObserver(forName: name, object: filtered ? sender : nil, queue: nil) { _ in
            counter.count &+= 1
        }
        return {
            for _ in 0..<n { center.post(name: name, object: sender) }
            center.removeObserver(token)
            return counter.checksum
        }
    }

    // W8

    static func w8Closure(_ n: Int) -> () -> UInt64 {
        let counter = Counter()
        return {
            for _ in 0..<n {
                let start: ((Int) -> Void, () -> Void) -> Void = { next, completed in
                    for value in 0..<10 { next(value) }
                    completed()
                }
                start({ counter.sum &+= UInt64($0) }, { counter.count &+= 1 })
            }
            return counter.checksum
        }
    }

    static func w8HeapObject(_ n: Int) -> () -> UInt64 {
        let counter = Counter()
        return {
            for _ in 0..<n {
                let source = makeColdRangeSource(0..<10)
                source.start(next: { counter.sum &+= UInt64($0) }, completed: { counter.count &+= 1 })
            }
            return counter.checksum
        }
    }
}

// MARK: - Scaling rows

extension Baseline {
    /// A chain of `operators` hand-written stages in front of `sink`, each a closure that adds 1 and calls
    /// the next: a chain of `map`s without operator objects or events.
    static func mapChain(operators: Int, into sink: @escaping (Int) -> Void) -> (Int) -> Void {
        var stage = sink
        for _ in 0..<operators {
            let next = stage
            stage = { next($0 &+ 1) }
        }
        return stage
    }

    /// W1 scaled: `values` values through `operators` stages; the subscriber sums them.
    static func mapChain(operators: Int, values: Int) -> () -> UInt64 {
        let list = ObserverList<Int>()
        let counter = Counter()
        list.add(mapChain(operators: operators) { counter.sum &+= UInt64($0) })
        return {
            for value in 0..<values { list.send(value) }
            return counter.checksum
        }
    }

    /// How far below the first stage of a chain of `operators` its subscriber runs, in bytes of stack (each
    /// stage's call to the next is a tail call, so the chain may take no stack at all).
    static func mapChainStackDepth(operators: Int) -> Int {
        let top = Counter()
        let bottom = Counter()
        let rest = mapChain(operators: max(operators, 1) - 1) { _ in bottom.sum = UInt64(tb_stack_address()) }
        let chain: (Int) -> Void = { value in
            top.sum = UInt64(tb_stack_address())
            rest(value &+ 1)
        }
        chain(0)
        return Int(bitPattern: UInt(top.sum)) - Int(bitPattern: UInt(bottom.sum))
    }

    /// Bytes of `count` live subscriptions, each through a chain of `operators` stages built for it.
    static func mapChainLive(operators: Int) -> (Int, () -> Int) -> Int {
        { count, heap in
            let list = ObserverList<Int>()
            let counter = Counter()
            var tokens: [ObserverToken<Int>] = []
            tokens.reserveCapacity(count)
            let before = heap()
            for _ in 0..<count {
                tokens.append(list.add(mapChain(operators: operators) { counter.sum &+= UInt64($0) }))
            }
            let after = heap()
            for token in tokens.reversed() { token.dispose() }  // newest first: fast
            return after - before
        }
    }
}
