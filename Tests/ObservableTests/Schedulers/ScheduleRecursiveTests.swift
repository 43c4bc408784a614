import Dispatch
import Foundation
import Observable
import TetherTestSupport
import XCTest

/// `scheduleRecursive(_:)`, after RAC 2.5's `-scheduleRecursiveBlock:` and its specs.
final class ScheduleRecursiveTests: XCTestCase {
    func testRunsOnceLikeAPlainBlockWhenItDoesNotReschedule() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.scheduleRecursive { _ in runs.increment() }
        XCTAssertEqual(runs.value, 0, "nothing runs before the scheduler does")
        XCTAssertEqual(scheduler.run(), 1)
        XCTAssertEqual(runs.value, 1)
    }

    func testARescheduleDuringARunHappensAfterItReturnsNotInsideIt() {
        let scheduler = TestScheduler()
        let depth = SchedulerTestBox(0)
        let maximumDepth = SchedulerTestBox(0)
        let runs = Counter()
        scheduler.scheduleRecursive { reschedule in
            depth.value += 1
            maximumDepth.value = max(maximumDepth.value, depth.value)
            runs.increment()
            if runs.value < 1_000 { reschedule() }
            depth.value -= 1
        }
        scheduler.run()
        XCTAssertEqual(runs.value, 1_000)
        XCTAssertEqual(maximumDepth.value, 1)
    }

    func testEachRescheduleCallDuringARunSchedulesOneRun() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value == 1 {
                reschedule()
                reschedule()
            }
        }
        scheduler.advance()
        XCTAssertEqual(runs.value, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testARescheduleAfterTheRunReturnedSchedulesAtOnce() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let kept = SchedulerTestBox<(@Sendable () -> Void)?>(nil)
        scheduler.scheduleRecursive { reschedule in
            runs.increment()
            kept.value = reschedule
        }
        scheduler.advance()
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
        kept.value?()
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance()
        XCTAssertEqual(runs.value, 2)
        kept.value = nil  // the box, captured by the action, holds the recursion: a cycle of the test's making
    }

    func testDisposingCancelsThePendingRunAndLaterReschedules() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let kept = SchedulerTestBox<(@Sendable () -> Void)?>(nil)
        let recursion = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            kept.value = reschedule
        }
        scheduler.advance()
        kept.value?()
        recursion.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0, "the waiting run was cancelled")
        kept.value?()
        XCTAssertEqual(scheduler.run(), 0)
        XCTAssertEqual(runs.value, 1)
        kept.value = nil  // the box, captured by the action, holds the recursion: a cycle of the test's making
    }

    func testDisposingBeforeTheFirstRunRunsNothing() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.scheduleRecursive { _ in runs.increment() }.dispose()
        scheduler.run()
        XCTAssertEqual(runs.value, 0)
    }

    func testTheImmediateSchedulerLoopsWithoutGrowingTheStackAndFinishesBeforeReturning() {
        let runs = Counter()
        let depth = SchedulerTestBox(0)
        let maximumDepth = SchedulerTestBox(0)
        ImmediateScheduler.shared.scheduleRecursive { reschedule in
            depth.value += 1
            maximumDepth.value = max(maximumDepth.value, depth.value)
            runs.increment()
            if runs.value < 100_000 { reschedule() }
            depth.value -= 1
        }
        XCTAssertEqual(runs.value, 100_000)
        XCTAssertEqual(maximumDepth.value, 1)
    }

    func testAQueueSchedulerRecursionRunsEachStepOnItsQueueInOrder() {
        let scheduler = QueueScheduler(name: "recursive")
        let steps = SchedulerTestBox<[Int]>([])
        let onQueue = SchedulerTestBox<[Bool]>([])
        let done = expectation(description: "ten steps")
        scheduler.scheduleRecursive { reschedule in
            steps.value.append(steps.value.count)
            onQueue.value.append(scheduler.isCurrent && currentScheduler === scheduler)
            if steps.value.count < 10 { reschedule() } else { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(steps.value, Array(0..<10))
        XCTAssertEqual(onQueue.value, Array(repeating: true, count: 10))
    }
}
