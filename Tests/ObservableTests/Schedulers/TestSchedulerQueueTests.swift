import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `TestScheduler`'s queue (issue 15, item 8): scheduling, cancelling and running cost O(log n), pinned
/// by counting the queue's comparisons (never by timing), and the order and cancellation behaviours
/// the heap must keep: FIFO at equal times (DESIGN.md guarantee 7), cancelling the head, cancelling
/// and scheduling from inside scheduled work.
final class TestSchedulerQueueTests: ResourceCheckedTestCase {
    // MARK: - Work, counted

    /// n actions at random times, half of them cancelled, then one advance: at most c·n·log2(n)
    /// comparisons. A sorted array that keeps cancelled items does Θ(n²) moves here.
    func testSchedulingNAndCancellingHalfCostsNLogNComparisons() {
        for n in [10_000, 40_000] {
            let scheduler = TestScheduler()
            let ran = Counter()
            var random = SeededGenerator(seed: UInt64(n))
            let handles = (0..<n).map { _ in
                scheduler.schedule(after: .milliseconds(Int(random.next() % 1_000))) { ran.increment() }
            }
            for (index, handle) in handles.enumerated() where index.isMultiple(of: 2) {
                handle.dispose()
            }
            XCTAssertEqual(scheduler.pendingCount, n / 2, "cancelled actions leave the queue at once")
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(ran.value, n / 2)
            XCTAssertEqual(scheduler.pendingCount, 0)
            let bound = 6 * Double(n) * log2(Double(n))
            XCTAssertLessThanOrEqual(Double(scheduler.queueComparisons), bound, "n = \(n)")
        }
    }

    /// The scenario: `debounce` of 40,000 values sent at one virtual instant, then `advance`.
    /// Each value cancels the previous timer, so the queue never holds more than one or two.
    func testDebounceOfFortyThousandValuesAtOneInstant() {
        let n = 40_000
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = subject.debounce(.milliseconds(300), on: scheduler).record(into: log)
        for value in 0..<n { subject.send(value) }
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(n - 1, at: 300)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertLessThanOrEqual(Double(scheduler.queueComparisons), 6 * Double(n) * log2(Double(n)))
        subscription.dispose()
    }

    /// Cancelled actions never pile up: n schedule-then-cancel rounds leave nothing in the queue.
    func testScheduleThenCancelRoundsLeaveNothingQueued() {
        let scheduler = TestScheduler()
        for round in 0..<10_000 {
            scheduler.schedule(after: .milliseconds(round % 7)) {}.dispose()
        }
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertLessThanOrEqual(scheduler.queueComparisons, 10_000, "one-element heap: at most one per round")
        XCTAssertEqual(scheduler.run(), 0)
    }

    // MARK: - Order

    /// Guarantee 7: many actions at a few equal times run in (time, scheduling order) order.
    func testActionsAtEqualTimesRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        var random = SeededGenerator(seed: 7)
        var expected: [(time: Int, index: Int)] = []
        for index in 0..<2_000 {
            let time = Int(random.next() % 5) * 100
            expected.append((time, index))
            scheduler.schedule(after: .milliseconds(time)) { log.append(index) }
        }
        scheduler.run()
        let order = expected.sorted { ($0.time, $0.index) < ($1.time, $1.index) }.map(\.index)
        XCTAssertEqual(log.values, order)
    }

    func testFIFOAtEqualTimesSurvivesCancellationsInBetween() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        let handles = (0..<200).map { index in
            scheduler.schedule(after: .seconds(1)) { log.append(index) }
        }
        for (index, handle) in handles.enumerated() where index % 3 == 1 { handle.dispose() }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.values, (0..<200).filter { $0 % 3 != 1 })
    }

    // MARK: - Cancellation

    func testCancellingTheHeadRunsTheNextInOrder() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        let head = scheduler.schedule(after: .seconds(1)) { log.append(0) }
        scheduler.schedule(after: .seconds(1)) { log.append(1) }
        scheduler.schedule(after: .seconds(2)) { log.append(2) }
        scheduler.schedule(after: .seconds(3)) { log.append(3) }
        head.dispose()
        XCTAssertTrue(head.isDisposed)
        XCTAssertEqual(scheduler.pendingCount, 3)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(log.values, [1, 2])
        XCTAssertEqual(scheduler.now, .seconds(2))
        head.dispose()  // idempotent, after the fact
        scheduler.run()
        XCTAssertEqual(log.values, [1, 2, 3])
    }

    func testCancellingFromInsideScheduledWork() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        let sameTime = Handle()
        let later = Handle()
        let ticking = Handle()
        let own = Handle()
        own.value = scheduler.schedule(after: .seconds(1)) {
            log.append(0)
            sameTime.value?.dispose()
            later.value?.dispose()
            ticking.value?.dispose()
            own.value?.dispose()  // already running: nothing to cancel, no harm
        }
        sameTime.value = scheduler.schedule(after: .seconds(1)) { log.append(1) }
        later.value = scheduler.schedule(after: .seconds(2)) { log.append(2) }
        ticking.value = scheduler.schedule(after: .milliseconds(500), interval: .milliseconds(500)) {
            log.append(9)
        }
        scheduler.schedule(after: .seconds(3)) { log.append(3) }
        scheduler.advance(by: .seconds(1))
        // The tick at 1 s was scheduled (re-queued) after the canceller, so it is cancelled too.
        XCTAssertEqual(log.values, [9, 0])
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.run()
        XCTAssertEqual(log.values, [9, 0, 3])
    }

    func testCancelledActionsAreReleasedAtOnce() {
        let scheduler = TestScheduler()
        weak var weakTracked: Tracked?
        let handle: any Disposable = {
            let tracked = Tracked()
            weakTracked = tracked
            return scheduler.schedule(after: .seconds(1)) { _ = tracked }
        }()
        XCTAssertNotNil(weakTracked)
        handle.dispose()
        XCTAssertNil(weakTracked, "a cancelled action's closure is released when it is cancelled")
    }

    func testARunActionIsReleasedEvenWhileItsDisposableIsKept() {
        let scheduler = TestScheduler()
        weak var weakTracked: Tracked?
        let handle: any Disposable = {
            let tracked = Tracked()
            weakTracked = tracked
            return scheduler.schedule { _ = tracked }
        }()
        scheduler.advance()
        XCTAssertNil(weakTracked)
        XCTAssertFalse(handle.isDisposed, "running an action does not dispose its handle")
        handle.dispose()
        XCTAssertTrue(handle.isDisposed)
    }

    func testPendingActionsAreReleasedWithTheScheduler() {
        weak var weakTracked: Tracked?
        weak var weakScheduler: TestScheduler?
        let handle: any Disposable = {
            let scheduler = TestScheduler()
            weakScheduler = scheduler
            let tracked = Tracked()
            weakTracked = tracked
            return scheduler.schedule(after: .seconds(1)) { _ = tracked }
        }()
        XCTAssertNil(weakScheduler)
        XCTAssertNil(weakTracked)
        XCTAssertFalse(handle.isDisposed)
        handle.dispose()  // the scheduler is gone: nothing to do, no harm
        XCTAssertTrue(handle.isDisposed)
    }

    /// A repeating action that keeps its own handle (as an observer keeps the subscriptions made with
    /// it): the cycle through the handle ends with the scheduler.
    func testARepeatingActionHoldingItsOwnHandleIsReleasedWithTheScheduler() {
        weak var weakTracked: Tracked?
        weak var weakHandle: (any Disposable)?
        do {
            let scheduler = TestScheduler()
            let tracked = Tracked()
            let holder = Handle()
            holder.value = scheduler.schedule(after: .seconds(1), interval: .seconds(1)) {
                _ = tracked
                _ = holder
            }
            weakTracked = tracked
            weakHandle = holder.value
            scheduler.advance(by: .seconds(2))
            XCTAssertEqual(scheduler.pendingCount, 1)
        }
        XCTAssertNil(weakTracked)
        XCTAssertNil(weakHandle)
    }

    // MARK: - Scheduling from inside scheduled work

    func testSchedulingAtTheCurrentTimeFromInsideWorkRunsInTheSameAdvanceAfterWhatIsDue() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        scheduler.schedule(after: .seconds(1)) {
            log.append(0)
            scheduler.schedule {
                log.append(3)
                scheduler.schedule { log.append(4) }
            }
            scheduler.schedule(after: .zero) { log.append(5) }
        }
        scheduler.schedule(after: .seconds(1)) { log.append(1) }
        scheduler.schedule(after: .seconds(1)) { log.append(2) }
        scheduler.schedule(after: .seconds(2)) { log.append(6) }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.values, [0, 1, 2, 3, 5, 4])
        XCTAssertEqual(scheduler.now, .seconds(1))
        XCTAssertEqual(scheduler.pendingCount, 1)
    }

    func testAnAdvanceByZeroRunsWorkScheduledNowFromWorkScheduledNow() {
        let scheduler = TestScheduler()
        let log = OrderLog()
        scheduler.schedule {
            log.append(0)
            scheduler.schedule { log.append(1) }
        }
        scheduler.advance()
        XCTAssertEqual(log.values, [0, 1])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    // MARK: - Threads

    /// Schedules and cancels from several threads at once (run under TSan in CI), then runs the rest.
    func testSchedulingAndCancellingFromManyThreads() {
        let scheduler = TestScheduler()
        let ran = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for step in 0..<500 {
                let handle = scheduler.schedule(after: .milliseconds(step % 13)) { ran.increment() }
                if step.isMultiple(of: 2) { handle.dispose() }
            }
        }
        XCTAssertEqual(scheduler.pendingCount, 8 * 250)
        XCTAssertEqual(scheduler.run(), 8 * 250)
        XCTAssertEqual(ran.value, 8 * 250)
    }

    /// A repeating action disposed from other threads while the scheduler runs it: it stops, and
    /// nothing is left queued.
    func testDisposingARepeatingActionWhileItRunsOnAnotherThread() {
        for _ in 0..<50 {
            let scheduler = TestScheduler()
            let ran = Counter()
            let thirdRun = DispatchSemaphore(value: 0)
            let handle = scheduler.schedule(after: .zero, interval: .milliseconds(1)) {
                ran.increment()
                if ran.value == 3 { thirdRun.signal() }
            }
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                thirdRun.wait()
                handle.dispose()
            }
            var runs = 0
            while !handle.isDisposed, runs < 1_000_000 {
                runs += scheduler.run(limit: 1)
            }
            group.wait()
            scheduler.run()
            XCTAssertEqual(scheduler.pendingCount, 0)
            XCTAssertGreaterThanOrEqual(ran.value, 3)
        }
    }
}

/// A thread-safe list of integers, in the order appended.
private final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}

/// A disposable set after the closures that use it were created.
private final class Handle: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: (any Disposable)?
    var value: (any Disposable)? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}
