import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Stress: `MutableProperty` set from several threads while observers come and go; `@Observed`
/// observers disposed from other threads while the owner sets.
final class StressPropertyTests: ResourceCheckedTestCase {
    /// What one observer of a counter saw: the first value and whether every later one was the
    /// previous plus one (a counter incremented by one per set, so nothing may be lost or reordered).
    final class CountingRecord: @unchecked Sendable {
        // Touched only inside the observer's serialized deliveries; read after it ended.
        var first: Int?
        var last: Int?
        var broken = 0
        func see(_ value: Int) {
            if first == nil { first = value }
            if let last, value != last + 1 { broken += 1 }
            last = value
        }
    }

    /// 8 threads × 40,000 (scaled) `modify { $0 += 1 }` on one property while 4 more threads repeat
    /// `churn(property, round, problems)` until the writers are done: every increment is stored and reaches
    /// a permanent observer once, in order, and `churn` reported no problem.
    private func assertEightWritersLoseNothing(
        file: StaticString = #filePath, line: UInt = #line,
        whileFourThreadsRepeat churn: @escaping @Sendable (MutableProperty<Int>, Int, ProblemLog) -> Void
    ) {
        let setters = 8
        let incrementsPerSetter = StressScale.scaled(40_000)
        let total = setters * incrementsPerSetter
        let property = MutableProperty(0)
        let permanent = GrammarMonitor<Int>()
        let permanentRecord = CountingRecord()
        permanent.onValue = { permanentRecord.see($0) }
        let permanentSubscription = permanent.subscribe(to: property)
        let settersDone = Atomic<Int>(0)
        let problems = ProblemLog()
        let churned = Atomic<Int>(0)
        let churnersReady = ChurnersReady(churners: 4)
        runThreads(setters + 4, file: file, line: line) { index in
            if index < setters {
                churnersReady.wait(file: file, line: line)
                for _ in 0..<incrementsPerSetter { property.modify { $0 += 1 } }
                settersDone.add(1, ordering: .acquiringAndReleasing)
                return
            }
            var round = 0
            churnersReady.arrive()
            repeat {
                churn(property, round, problems)
                round += 1
                churned.add(1, ordering: .relaxed)
            } while settersDone.load(ordering: .acquiring) < setters
        }
        XCTAssertEqual(problems.entries, [], file: file, line: line)
        XCTAssertEqual(property.value, total, "every increment is stored", file: file, line: line)
        permanent.assertWellFormed("permanent observer", file: file, line: line)
        XCTAssertEqual(permanentRecord.first, 0, file: file, line: line)
        XCTAssertEqual(permanentRecord.broken, 0, "every value delivered once, in order", file: file, line: line)
        XCTAssertEqual(permanentRecord.last, total, file: file, line: line)
        XCTAssertEqual(permanent.nextCount, total + 1, file: file, line: line)
        XCTAssertGreaterThan(churned.load(ordering: .relaxed), 0, "the churning threads ran", file: file, line: line)
        permanentSubscription.dispose()
    }

    func testMutablePropertyIncrementedFromEightThreadsWhileObserversComeAndGoLosesNothing() {
        // Observers subscribing and disposing on their own threads: each sees the value current when it
        // subscribed, then every later value, one by one.
        assertEightWritersLoseNothing { property, round, problems in
            let monitor = GrammarMonitor<Int>()
            let record = CountingRecord()
            monitor.onValue = { record.see($0) }
            let subscription = monitor.subscribe(to: property)
            spin((round % 5) * 1_000)
            subscription.dispose()
            monitor.markDisposed()
            // (Disposed before the delivering thread got to its initial value, it may have seen nothing.)
            if record.broken > 0 || monitor.overlaps > 0 || monitor.eventsAfterDispose > 0 {
                problems.add(
                    "observer: first \(String(describing: record.first)), broken \(record.broken), "
                        + "overlaps \(monitor.overlaps), after dispose \(monitor.eventsAfterDispose)")
            }
        }
    }

    /// Found by the leak check (AddressSanitizer) on a loaded CI machine: threads subscribing and disposing
    /// in a tight loop kept the gate's queue full of their own bookkeeping, which was not bounded, so the
    /// writer waiting for room (while holding the `modify` turn every other writer waits for) was served
    /// about once per four batches of it: 8 × 40,000 increments took minutes instead of a second. A
    /// subscription now waits for room like a set, and a gate handed over to the writers parked on the
    /// full queue is theirs to take first.
    func testMutablePropertyWritersAreNotStarvedByObserversSubscribingAndDisposingInATightLoop() {
        assertEightWritersLoseNothing { property, _, _ in
            property.signal.subscribe(next: { _ in }).dispose()
        }
    }

    func testMutablePropertyObserversReleasedWithThePropertyWhileThreadsSetEndQuietly() {
        for _ in 0..<StressScale.scaled(200) {
            let monitor = GrammarMonitor<Int>()
            do {
                let property = MutableProperty(0)
                _ = monitor.subscribe(to: property.map { $0 * 2 })
                runThreads(3) { _ in
                    for _ in 0..<100 { property.modify { $0 += 1 } }
                }
            }
            monitor.assertWellFormed("observer of a released property")
            XCTAssertEqual(monitor.nextCount, 301)
        }
    }

    func testObservedObserversDisposedFromOtherThreadsWhileTheOwnerSetsSeeEveryValueUntilDisposal() {
        let model = StressCounterModel()
        let sets = StressScale.scaled(100_000)
        let problems = ProblemLog()
        let handOff = DisposalQueue()
        let ownerDone = Flag()
        let disposed = Atomic<Int>(0)
        runThreads(4) { index in
            if index == 0 {
                // The owner: the only thread that reads or sets the model (Swift's rules for a plain
                // stored property); it subscribes observers and hands their disposables to others.
                for step in 1...sets {
                    if step % 97 == 0 {
                        let monitor = GrammarMonitor<Int>()
                        let record = CountingRecord()
                        monitor.onValue = { record.see($0) }
                        let subscription = monitor.subscribe(to: model.observe(\.count))
                        handOff.push((subscription, monitor, record))
                    }
                    model.count = step
                }
                ownerDone.raise()
                return
            }
            while !ownerDone.isRaised || !handOff.isEmpty {
                guard let (subscription, monitor, record) = handOff.pop() else {
                    sched_yield()
                    continue
                }
                subscription.dispose()
                monitor.markDisposed()
                disposed.add(1, ordering: .relaxed)
                if record.broken > 0 || monitor.overlaps > 0 || monitor.eventsAfterDispose > 0 || record.first == nil {
                    problems.add(
                        "broken \(record.broken), overlaps \(monitor.overlaps), late \(monitor.eventsAfterDispose)")
                }
            }
        }
        XCTAssertEqual(problems.entries, [])
        XCTAssertEqual(disposed.load(ordering: .relaxed), sets / 97)
    }

    func testObservedObjectReleasedWhileOtherThreadsDisposeItsObserversEndsEveryObservationOnce() {
        for _ in 0..<StressScale.scaled(300) {
            let holder = ModelHolder(StressCounterModel())
            let monitors = (0..<6).map { _ in GrammarMonitor<Int>() }
            let subscriptions = UncheckedBox(monitors.map { $0.subscribe(to: holder.model!.observe(\.count)) })
            let deallocations = GrammarMonitor<Void>()
            _ = deallocations.subscribe(to: holder.model!.deallocated)
            runThreads(3) { index in
                if index == 0 {
                    holder.model?.count = 1
                    holder.model = nil  // ends every observation (completion) while the others dispose
                } else {
                    for (position, subscription) in subscriptions.value.enumerated() where position % 2 == index - 1 {
                        subscription.dispose()
                    }
                }
            }
            for monitor in monitors { monitor.assertWellFormed("observation") }
            XCTAssertEqual(deallocations.terminalCount, 1)
        }
    }
}

/// A model whose `count` is observed.
final class StressCounterModel: KeyPathObservable, @unchecked Sendable {
    @Observed var count = 0
}

/// Subscriptions handed from the owner's thread to disposing threads.
final class DisposalQueue: @unchecked Sendable {
    typealias Item = (any Disposable, GrammarMonitor<Int>, StressPropertyTests.CountingRecord)
    private let lock = NSLock()
    private var items: [Item] = []
    var isEmpty: Bool { lock.withLock { items.isEmpty } }
    func push(_ item: Item) { lock.withLock { items.append(item) } }
    func pop() -> Item? { lock.withLock { items.isEmpty ? nil : items.removeFirst() } }
}

/// Lets one thread release the model while others work.
final class ModelHolder: @unchecked Sendable {
    var model: StressCounterModel?
    init(_ model: StressCounterModel) { self.model = model }
}
