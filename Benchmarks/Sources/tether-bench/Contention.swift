import Bridges
import Foundation
import Observable
@preconcurrency import OpenCombine
import Synchronization

// W10: contention. Eight threads send at once; the row times from their release to their return.
//
// Without churn, the checksum of every contender is what its subscriber had received *when the senders
// returned* (the sum of the values and their count), so a contender that left values queued — a backlog
// still being drained — gets a checksum different from the reference's, and the harness reports the
// mismatch instead of a figure: "every value delivered when the senders return" is checked on every run.
// With churn, a churning thread may be the one delivering when the senders return (it took the subject to
// add or remove its subscriber): the checksum is taken once the churners have stopped.
// Every W10 body also records (`SideFigureSink`) the share of the values its subscriber had received when
// the senders returned — 100 % whenever the checksum matches, except with churn — and, with churn, the
// churners' rate; both are printed after the table and written to the JSON.

/// Threads created outside the clock, released together by the timed body, which returns once all of
/// them returned.
final class SenderThreads: @unchecked Sendable {
    private let start = DispatchSemaphore(value: 0)
    private let group = DispatchGroup()
    private let count: Int

    init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        for index in 0..<count {
            group.enter()
            let thread = Thread { [start, group] in
                start.wait()
                body(index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Releases the threads and waits for them all.
    func run() {
        for _ in 0..<count { start.signal() }
        group.wait()
    }
}

/// The baseline: a mutex-guarded queue drained by whichever sender finds it idle — serialized (one
/// callback at a time), no lock held around callbacks, reentrancy-safe — the physical limit of a
/// serializing hot source under contention.
final class MutexQueue<Value>: @unchecked Sendable {
    // Safety: `queue`, `draining` and `observers` are guarded by `lock`.
    private let lock = NSLock()
    private var queue: [Value] = []
    private var spare: [Value] = []
    private var draining = false
    private var observers: [(id: Int, body: (Value) -> Void)] = []
    private var nextID = 0

    func subscribe(_ body: @escaping (Value) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        observers.append((nextID, body))
        return nextID
    }

    func unsubscribe(_ id: Int) {
        lock.lock()
        observers.removeAll { $0.id == id }
        lock.unlock()
    }

    func send(_ value: Value) {
        lock.lock()
        queue.append(value)
        if draining {
            lock.unlock()
            return
        }
        draining = true
        while !queue.isEmpty {
            swap(&queue, &spare)
            let targets = observers
            lock.unlock()
            for item in spare {
                for observer in targets { observer.body(item) }
            }
            spare.removeAll(keepingCapacity: true)
            lock.lock()
        }
        draining = false
        lock.unlock()
    }
}

/// Whether a property subscriber has yet to skip its initial value (touched only by its deliveries).
final class InitialValueFlag: @unchecked Sendable {
    @exclusivity(unchecked) var pending = true
}

/// Carries an object that is thread-safe but not marked `Sendable` (OpenCombine's subjects).
struct UncheckedBox<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}

/// Churning subscribers: threads, created outside the clock, that subscribe and dispose in a loop from
/// `start()` until `stop()`.
final class Churners: @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let stopFlag = Atomic<Bool>(false)
    private let cycles = Atomic<Int>(0)
    private let group = DispatchGroup()
    private let count: Int
    private var started: UInt64 = 0  // written and read by the thread calling start() and stop()

    init(_ count: Int, _ cycle: @escaping @Sendable () -> Void) {
        self.count = count
        for _ in 0..<count {
            group.enter()
            let thread = Thread { [self] in
                gate.wait()
                while !stopFlag.load(ordering: .relaxed) {
                    cycle()
                    cycles.add(1, ordering: .relaxed)
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Releases the churners.
    func start() {
        started = monotonicNanoseconds()
        for _ in 0..<count { gate.signal() }
    }

    /// Stops the churners, waits for them (a cycle in progress finishes, including any delivery it took
    /// over), and returns their subscribe/dispose cycles per second since `start()`.
    func stop() -> Double {
        stopFlag.store(true, ordering: .relaxed)
        group.wait()
        let seconds = Double(monotonicNanoseconds() - started) / 1e9
        return Double(cycles.load(ordering: .relaxed)) / seconds
    }
}

enum Contention {
    static let senders = 8
    static let churners = 10

    /// The checksum of a subscriber that received every value `0..<perSender` from every sender.
    static func fold(_ counter: Counter, _ value: Int) {
        counter.sum &+= UInt64(value)
        counter.count &+= 1
    }

    /// Records the share of the `senders × perSender` values received when the senders returned (and,
    /// with churn, the churners' rate) for the runner.
    static func recordDelivered(_ received: some BinaryInteger, perSender: Int, churnRate: Double? = nil) {
        SideFigureSink.shared.record(
            deliveredShare: Double(received) / Double(senders * perSender), churnCyclesPerSecond: churnRate)
    }

    // MARK: One subject, one subscriber (with or without churning subscribers)

    static func mutexQueue(perSender: Int, churn: Bool) -> () -> UInt64 {
        let queue = MutexQueue<Int>()
        let counter = Counter()
        let delivered = Atomic<Int>(0)  // read when the senders return (the counter is the drainer's)
        _ = queue.subscribe {
            fold(counter, $0)
            if churn { delivered.add(1, ordering: .relaxed) }
        }
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { queue.send(value) }
        }
        let churning = churn ? Churners(churners) { queue.unsubscribe(queue.subscribe { _ in }) } : nil
        return {
            churning?.start()
            threads.run()
            if let churning {
                let received = delivered.load(ordering: .relaxed)
                recordDelivered(received, perSender: perSender, churnRate: churning.stop())
            } else {
                recordDelivered(counter.count, perSender: perSender)
            }
            return counter.checksum
        }
    }

    static func tetherSubject(perSender: Int, churn: Bool) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        let delivered = Atomic<Int>(0)  // read when the senders return (the counter is the drainer's)
        let subscription = subject.subscribe(next: {
            fold(counter, $0)
            if churn { delivered.add(1, ordering: .relaxed) }
        })
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { subject.send(value) }
        }
        let churning = churn ? Churners(churners) { subject.subscribe(next: { _ in }).dispose() } : nil
        return {
            churning?.start()
            threads.run()
            if let churning {
                // The delivering thread may be a churner: the checksum is read once the churners are done.
                let received = delivered.load(ordering: .relaxed)
                recordDelivered(received, perSender: perSender, churnRate: churning.stop())
            } else {
                recordDelivered(counter.count, perSender: perSender)
            }
            subscription.dispose()
            return counter.checksum
        }
    }

    static func openCombineSubject(perSender: Int, churn: Bool) -> () -> UInt64 {
        // PassthroughSubject is documented as safe to send into from several threads, but not Sendable.
        let subject = UncheckedBox(PassthroughSubject<Int, Never>()).value
        // OpenCombine calls one subscriber from several sending threads at once: its fold takes a lock
        // (without it the checksum comes out wrong).
        let lock = NSLock()
        let counter = Counter()
        let cancellable = subject.sink { value in lock.withLock { fold(counter, value) } }
        let shared = UncheckedBox(subject)
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { shared.value.send(value) }
        }
        let churning = churn ? Churners(churners) { shared.value.sink { _ in }.cancel() } : nil
        return {
            churning?.start()
            threads.run()
            let received = lock.withLock { counter.count }
            recordDelivered(received, perSender: perSender, churnRate: churning?.stop())
            cancellable.cancel()
            return lock.withLock { counter.checksum }
        }
    }

    // MARK: MutableProperty set from eight threads

    static func tetherProperty(perSender: Int) -> () -> UInt64 {
        let property = MutableProperty(0)
        let counter = Counter()
        // The subscriber's own state opts out of runtime exclusivity checks, as the baseline's does (a
        // captured `var` cost this row ~10 % in swift_beginAccess).
        let initial = InitialValueFlag()
        let subscription = property.signal.subscribe(next: { value in
            if initial.pending {
                initial.pending = false
                return
            }
            fold(counter, value)
        })
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { property.value = value }
        }
        return {
            threads.run()
            recordDelivered(counter.count, perSender: perSender)
            let checksum = counter.checksum
            subscription.dispose()
            return checksum
        }
    }

    // MARK: merge of eight subjects, each fed by its own thread

    static func tetherMerge(perSender: Int) -> () -> UInt64 {
        let subjects = (0..<senders).map { _ in Subject<Int, Never>() }
        let counter = Counter()
        let subscription = Signal.merge(subjects).subscribe(next: { fold(counter, $0) })
        let threads = SenderThreads(senders) { index in
            let subject = subjects[index]
            for value in 0..<perSender { subject.send(value) }
        }
        return {
            threads.run()
            recordDelivered(counter.count, perSender: perSender)
            let checksum = counter.checksum
            subscription.dispose()
            return checksum
        }
    }

    /// The baseline's design built the way `merge` of eight subjects is: each sender sends into a mutex queue
    /// of its own, whose one subscriber sends on into the shared queue. Informational (no goal): it measures
    /// what a serializing stage per sender in front of the contended one costs when built from the
    /// baseline's own parts (Benchmarks/README.md, "The merge row's shape").
    static func mutexQueuePerSender(perSender: Int) -> () -> UInt64 {
        let shared = MutexQueue<Int>()
        let counter = Counter()
        _ = shared.subscribe { fold(counter, $0) }
        let queues = (0..<senders).map { _ in MutexQueue<Int>() }
        for queue in queues { _ = queue.subscribe { shared.send($0) } }
        let threads = SenderThreads(senders) { index in
            let queue = queues[index]
            for value in 0..<perSender { queue.send(value) }
        }
        return {
            threads.run()
            recordDelivered(counter.count, perSender: perSender)
            return counter.checksum
        }
    }

    // MARK: NotificationCenter posts from eight threads

    static let notification = Notification.Name("tether.bench.w10")

    /// The same serializing queue behind a raw block observer.
    static func rawNotifications(perSender: Int) -> () -> UInt64 {
        let center = NotificationCenter()
        let queue = MutexQueue<Int>()
        let counter = Counter()
        _ = queue.subscribe { fold(counter, $0) }
        let token = center.addObserver(forName: notification, object: nil, queue: nil) { note in
            queue.send(note.userInfo?["value"] as? Int ?? 0)
        }
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { center.post(name: notification, object: nil, userInfo: ["value": value]) }
        }
        return {
            threads.run()
            recordDelivered(counter.count, perSender: perSender)
            center.removeObserver(token)
            return counter.checksum
        }
    }

    static func tetherNotifications(perSender: Int) -> () -> UInt64 {
        let center = NotificationCenter()
        let counter = Counter()
        let subscription = center.signal(for: notification).subscribe(next: { note in
            fold(counter, note.userInfo?["value"] as? Int ?? 0)
        })
        let threads = SenderThreads(senders) { _ in
            for value in 0..<perSender { center.post(name: notification, object: nil, userInfo: ["value": value]) }
        }
        return {
            threads.run()
            recordDelivered(counter.count, perSender: perSender)
            let checksum = counter.checksum
            subscription.dispose()
            return checksum
        }
    }
}
