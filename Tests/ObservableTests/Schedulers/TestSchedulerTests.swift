import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// A thread-safe list of strings stamped with the scheduler's time when appended.
private final class StampedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    private let scheduler: TestScheduler

    init(_ scheduler: TestScheduler) { self.scheduler = scheduler }

    var entries: [String] { lock.withLock { storage } }

    func append(_ name: String) {
        let time = scheduler.now
        let milliseconds = time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000
        lock.withLock { storage.append("\(name)@\(milliseconds)") }
    }
}

final class TestSchedulerTests: ResourceCheckedTestCase {
    func testNothingRunsUntilTheClockAdvances() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        scheduler.schedule { log.append("now") }
        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance()
        XCTAssertEqual(log.entries, ["now@0"])
    }

    func testActionsRunInTimeThenSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        scheduler.schedule(after: .seconds(2)) { log.append("c") }
        scheduler.schedule(after: .seconds(1)) { log.append("a") }
        scheduler.schedule(after: .seconds(1)) { log.append("b") }
        scheduler.schedule { log.append("first") }
        scheduler.schedule(after: .seconds(2)) { log.append("d") }
        scheduler.run()
        XCTAssertEqual(log.entries, ["first@0", "a@1000", "b@1000", "c@2000", "d@2000"])
    }

    func testActionsSeeTheirScheduledTimeAsNow() {
        let scheduler = TestScheduler()
        let seen = Locked<[Duration]>([])
        scheduler.schedule(after: .milliseconds(300)) { seen.append(scheduler.now) }
        scheduler.schedule(after: .milliseconds(700)) { seen.append(scheduler.now) }
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(seen.values, [.milliseconds(300), .milliseconds(700)])
        XCTAssertEqual(scheduler.now, .seconds(5))
    }

    func testActionsSchedulingDueActionsRunInTheSameAdvance() {
        expectLiveSubscriptions("an action referencing its scheduler is left pending on it")
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        scheduler.schedule(after: .seconds(1)) {
            log.append("outer")
            scheduler.schedule { log.append("inner-now") }
            scheduler.schedule(after: .milliseconds(500)) { log.append("inner-later") }
            scheduler.schedule(after: .seconds(5)) { log.append("inner-too-late") }
        }
        scheduler.schedule(after: .seconds(1)) { log.append("sibling") }
        scheduler.advance(by: .milliseconds(1500))
        XCTAssertEqual(log.entries, ["outer@1000", "sibling@1000", "inner-now@1000", "inner-later@1500"])
        XCTAssertEqual(scheduler.pendingCount, 1)
    }

    func testAdvanceByRunsOnlyWhatIsDueAndMovesTheClock() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        scheduler.schedule(after: .seconds(1)) { log.append("a") }
        scheduler.schedule(after: .seconds(3)) { log.append("b") }
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(log.entries, ["a@1000"])
        XCTAssertEqual(scheduler.now, .seconds(2))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, ["a@1000", "b@3000"])
        XCTAssertEqual(scheduler.now, .seconds(3))
    }

    func testAdvanceByANegativeDurationDoesNothing() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(2))
        scheduler.advance(by: .seconds(-1))
        XCTAssertEqual(scheduler.now, .seconds(2))
    }

    func testAdvanceToAPastTimeNeverMovesTheClockBack() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        scheduler.advance(to: .seconds(4))
        scheduler.schedule { log.append("due") }
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(scheduler.now, .seconds(4))
        scheduler.advance()
        XCTAssertEqual(log.entries, ["due@4000"])
    }

    func testRunRunsEverythingAndMovesTheClockToTheLastAction() {
        let scheduler = TestScheduler(start: .seconds(10))
        let log = StampedLog(scheduler)
        scheduler.schedule(after: .seconds(2)) { log.append("a") }
        scheduler.schedule(after: .seconds(7)) {
            log.append("b")
            scheduler.schedule(after: .seconds(1)) { log.append("c") }
        }
        XCTAssertEqual(scheduler.run(), 3)
        XCTAssertEqual(log.entries, ["a@12000", "b@17000", "c@18000"])
        XCTAssertEqual(scheduler.now, .seconds(18))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCancelledActionsNeverRunAndAreNotPending() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.append("cancelled") }
        scheduler.schedule(after: .seconds(2)) { log.append("kept") }
        XCTAssertEqual(scheduler.pendingCount, 2)
        cancelled.dispose()
        XCTAssertTrue(cancelled.isDisposed)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, ["kept@2000"])
    }

    func testAnActionCanCancelALaterOneDueAtTheSameTime() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        let victim = Locked<(any Disposable)?>(nil)
        scheduler.schedule(after: .seconds(1)) {
            log.append("killer")
            victim.value?.dispose()
        }
        victim.value = scheduler.schedule(after: .seconds(1)) { log.append("victim") }
        scheduler.run()
        XCTAssertEqual(log.entries, ["killer@1000"])
    }

    func testRepeatingActionsRunAtEveryIntervalUntilCancelled() {
        let scheduler = TestScheduler()
        let log = StampedLog(scheduler)
        let ticking = scheduler.schedule(after: .seconds(1), interval: .seconds(2)) { log.append("tick") }
        scheduler.advance(by: .seconds(6))
        XCTAssertEqual(log.entries, ["tick@1000", "tick@3000", "tick@5000"])
        XCTAssertEqual(scheduler.pendingCount, 1)
        ticking.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(6))
        XCTAssertEqual(log.entries.count, 3)
    }

    func testARepeatingActionCanCancelItself() {
        let scheduler = TestScheduler()
        let count = Counter()
        let handle = Locked<(any Disposable)?>(nil)
        handle.value = scheduler.schedule(after: .zero, interval: .seconds(1)) {
            count.increment()
            if count.value == 3 { handle.value?.dispose() }
        }
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(count.value, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testRunStopsRepeatingWorkAtTheLimit() {
        let scheduler = TestScheduler()
        let count = Counter()
        scheduler.schedule(after: .zero, interval: .seconds(1)) { count.increment() }
        XCTAssertEqual(scheduler.run(limit: 5), 5)
        XCTAssertEqual(count.value, 5)
        XCTAssertEqual(scheduler.now, .seconds(4))
    }

    func testRunsAreDeterministic() {
        func scenario() -> [String] {
            let scheduler = TestScheduler()
            let log = StampedLog(scheduler)
            for index in 0..<20 {
                scheduler.schedule(after: .milliseconds((index * 37) % 500)) {
                    log.append("a\(index)")
                    if index.isMultiple(of: 3) {
                        scheduler.schedule(after: .milliseconds(index * 11)) { log.append("b\(index)") }
                    }
                }
            }
            let ticks = scheduler.schedule(after: .milliseconds(50), interval: .milliseconds(120)) { log.append("t") }
            scheduler.advance(by: .milliseconds(400))
            ticks.dispose()
            scheduler.run()
            return log.entries
        }
        let first = scenario()
        XCTAssertEqual(first.count, 20 + 7 + 3)
        for _ in 0..<5 {
            XCTAssertEqual(scenario(), first)
        }
    }

    func testSchedulingFromAnotherThreadIsSafe() {
        let scheduler = TestScheduler()
        let count = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for step in 0..<100 {
                scheduler.schedule(after: .milliseconds(step)) { count.increment() }
            }
            _ = index
        }
        XCTAssertEqual(scheduler.pendingCount, 800)
        scheduler.run()
        XCTAssertEqual(count.value, 800)
    }
}
