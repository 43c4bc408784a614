import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class QueueSchedulerTests: ResourceCheckedTestCase {
    func testScheduledWorkRunsInOrder() {
        let scheduler = QueueScheduler(name: "order")
        let log = Locked<[Int]>([])
        let done = expectation(description: "last action ran")
        for index in 0..<1_000 {
            scheduler.schedule {
                log.append(index)
                if index == 999 { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<1_000))
    }

    func testDisposingBeforeItRunsCancelsTheWork() {
        let scheduler = QueueScheduler(name: "cancel")
        let gate = DispatchSemaphore(value: 0)
        let log = Locked<[Int]>([])
        scheduler.schedule { gate.wait() }  // hold the queue so the next action cannot start yet
        let cancelled = scheduler.schedule { log.append(1) }
        scheduler.schedule { log.append(2) }
        cancelled.dispose()
        XCTAssertTrue(cancelled.isDisposed)
        gate.signal()
        let done = expectation(description: "marker ran")
        scheduler.schedule { done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, [2])
    }

    func testDisposingDelayedWorkCancelsIt() {
        let scheduler = QueueScheduler(name: "cancel-delayed")
        let log = Locked<[Int]>([])
        let cancelled = scheduler.schedule(after: .milliseconds(1)) { log.append(1) }
        cancelled.dispose()
        let done = expectation(description: "later marker ran")
        scheduler.schedule(after: .milliseconds(20)) {
            log.append(2)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, [2])
    }

    func testDelayedWorkRunsOnTheQueue() {
        let scheduler = QueueScheduler(name: "delayed")
        let onQueue = Locked<[Bool]>([])
        let done = expectation(description: "ran")
        scheduler.schedule(after: .milliseconds(5)) {
            onQueue.append(scheduler.isCurrent)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(onQueue.values, [true])
    }

    func testIsCurrentOnlyOnTheSchedulersOwnQueue() {
        let scheduler = QueueScheduler(name: "current")
        let other = QueueScheduler(name: "other")
        let seen = Locked<[Bool]>([])
        let done = expectation(description: "ran")
        XCTAssertFalse(scheduler.isCurrent)
        scheduler.schedule {
            seen.append(scheduler.isCurrent)
            seen.append(other.isCurrent)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values, [true, false])
    }

    func testSchedulerOnAnExistingQueueRunsThere() {
        let queue = DispatchQueue(label: "existing")
        let scheduler = QueueScheduler(queue: queue)
        XCTAssertTrue(scheduler.queue === queue)
        let seen = Locked<[Bool]>([])
        let done = expectation(description: "ran")
        scheduler.schedule {
            seen.append(scheduler.isCurrent)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values, [true])
        queue.sync { XCTAssertTrue(scheduler.isCurrent) }
    }

    func testMainSchedulerRunsWhileTheTestWaits() {
        let seen = Locked<[Bool]>([])
        let done = expectation(description: "ran on main")
        QueueScheduler.main.schedule {
            seen.append(QueueScheduler.main.isCurrent)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values, [true])
    }

    func testRepeatingTimerFiresUntilDisposed() {
        let scheduler = QueueScheduler(name: "timer")
        let ticks = Counter()
        let onQueue = Locked<[Bool]>([])
        let threeTicks = expectation(description: "three ticks")
        threeTicks.assertForOverFulfill = false
        let timer = scheduler.schedule(after: .zero, interval: .milliseconds(1)) {
            ticks.increment()
            onQueue.append(scheduler.isCurrent)
            if ticks.value == 3 { threeTicks.fulfill() }
        }
        wait(for: [threeTicks], timeout: 10)
        timer.dispose()
        XCTAssertTrue(timer.isDisposed)
        scheduler.queue.sync {}
        let afterDispose = ticks.value
        scheduler.queue.sync {}
        XCTAssertEqual(ticks.value, afterDispose)
        XCTAssertGreaterThanOrEqual(afterDispose, 3)
        XCTAssertFalse(onQueue.values.contains(false))
    }

    func testIntervalSignalTicksOnAQueueScheduler() {
        let scheduler = QueueScheduler(name: "interval")
        let log = Locked<[Int]>([])
        let done = expectation(description: "three ticks")
        let subscription = Signal.interval(.milliseconds(1), on: scheduler).subscribe(next: { tick in
            log.append(tick)
            if tick == 2 { done.fulfill() }
        })
        wait(for: [done], timeout: 10)
        subscription.dispose()
        XCTAssertEqual(Array(log.values.prefix(3)), [0, 1, 2])
        let count = log.values.count
        scheduler.queue.sync {}
        XCTAssertEqual(log.values.count, count)
    }
}

final class ImmediateSchedulerTests: ResourceCheckedTestCase {
    func testScheduleRunsBeforeReturning() {
        let log = Locked<[Int]>([])
        let work = ImmediateScheduler.shared.schedule { log.append(1) }
        XCTAssertEqual(log.values, [1])
        XCTAssertTrue(work.isDisposed)
    }

    func testNestedSchedulingRunsAtOnceInNestingOrder() {
        let log = Locked<[Int]>([])
        ImmediateScheduler.shared.schedule {
            log.append(1)
            ImmediateScheduler.shared.schedule { log.append(2) }
            log.append(3)
        }
        XCTAssertEqual(log.values, [1, 2, 3])
    }

    func testDelayedWorkRunsBeforeReturning() {
        let log = Locked<[Int]>([])
        ImmediateScheduler.shared.schedule(after: .zero) { log.append(1) }
        ImmediateScheduler.shared.schedule(after: .milliseconds(1)) { log.append(2) }
        XCTAssertEqual(log.values, [1, 2])
    }

    func testRepeatingWorkRunsOnce() {
        let count = Counter()
        let work = ImmediateScheduler.shared.schedule(after: .zero, interval: .milliseconds(1)) { count.increment() }
        XCTAssertEqual(count.value, 1)
        XCTAssertTrue(work.isDisposed)
    }

    func testClockNeverGoesBackwards() {
        let scheduler = ImmediateScheduler()
        let first = scheduler.now
        let second = scheduler.now
        XCTAssertGreaterThanOrEqual(second, first)
    }

    func testOperatorsOnTheImmediateSchedulerRunSynchronously() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        subject.subscribe(on: ImmediateScheduler.shared)
            .delay(.zero, on: ImmediateScheduler.shared)
            .debounce(.zero, on: ImmediateScheduler.shared)
            .record(into: log)
        subject.send(1)
        XCTAssertEqual(log.events, [.next(1)])
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .completed])
    }
}
