import Foundation
import TetherGioTestSupport
import TetherGtk
import XCTest

final class MainContextSchedulerTests: GtkTestCase {
    func testWorkScheduledFromAnotherThreadRunsOnTheMainLoopThread() {
        let ranOnMain = Locked(nil as Bool?)
        DispatchQueue.global().async {
            MainContextScheduler.main.schedule { ranOnMain.store(Thread.isMainThread) }
        }
        pump(until: { ranOnMain.load() != nil })
        XCTAssertEqual(ranOnMain.load(), true)
    }

    func testScheduleNeverRunsSynchronously() {
        let ran = Locked(false as Bool?)
        MainContextScheduler.main.schedule { ran.store(true) }
        XCTAssertEqual(ran.load(), false)
        pump(until: { ran.load() == true })
    }

    func testDisposingBeforeItRunsCancelsTheWorkAndReleasesIt() {
        final class Tracked: Sendable {}
        weak var tracked: Tracked?
        let ran = Locked(false as Bool?)
        do {
            let captured = Tracked()
            tracked = captured
            let work = MainContextScheduler.main.schedule {
                _ = captured
                ran.store(true)
            }
            work.dispose()
        }
        let after = Locked(false as Bool?)
        MainContextScheduler.main.schedule { after.store(true) }
        pump(until: { after.load() == true })
        XCTAssertEqual(ran.load(), false)
        XCTAssertNil(tracked, "the cancelled source's destroy notify released the work")
    }

    func testATimerRunsAfterWorkScheduledForNow() {
        let order = Locked([] as [String]?)
        MainContextScheduler.main.schedule(after: .milliseconds(30)) { order.modify { $0?.append("timer") } }
        MainContextScheduler.main.schedule { order.modify { $0?.append("now") } }
        pump(until: { order.load()?.count == 2 })
        XCTAssertEqual(order.load(), ["now", "timer"])
    }

    func testARepeatingTimerRunsUntilDisposed() {
        let ticks = Locked(0 as Int?)
        let timer = MainContextScheduler.main.schedule(after: .milliseconds(1), interval: .milliseconds(5)) {
            ticks.modify { $0! += 1 }
        }
        pump(until: { ticks.load()! >= 3 })
        timer.dispose()
        let count = ticks.load()
        // Another source later than the timer's next tick would have been: the timer stays silent.
        let later = Locked(false as Bool?)
        MainContextScheduler.main.schedule(after: .milliseconds(30)) { later.store(true) }
        pump(until: { later.load() == true })
        XCTAssertEqual(ticks.load(), count)
        XCTAssertTrue(timer.isDisposed)
    }

    func testDeliverOnTheMainContextMovesValuesToTheMainThread() {
        let subject = Subject<Int, Never>()
        let received = Locked([] as [Int]?)
        let threads = Locked([] as [Bool]?)
        let subscription = subject.deliver(on: MainContextScheduler.main).subscribe(next: { value in
            received.modify { $0?.append(value) }
            threads.modify { $0?.append(Thread.isMainThread) }
        })
        defer { subscription.dispose() }
        DispatchQueue.global().async { for value in 1...5 { subject.send(value) } }
        pump(until: { received.load()?.count == 5 })
        XCTAssertEqual(received.load(), [1, 2, 3, 4, 5])
        XCTAssertEqual(threads.load(), Array(repeating: true, count: 5))
    }

    func testTheClockIsGLibsMonotonicTime() {
        let before = g_get_monotonic_time()
        let now = MainContextScheduler.main.now
        let after = g_get_monotonic_time()
        XCTAssertGreaterThanOrEqual(now, .microseconds(before))
        XCTAssertLessThanOrEqual(now, .microseconds(after))
    }
}

final class MainQueueIntegrationTests: GtkTestCase {
    func testDispatchMainAsyncRunsInsideGLibsLoop() {
        XCTAssertTrue(onMain { MainQueueIntegration.isInstalled })
        let ran = Locked(false as Bool?)
        DispatchQueue.global().async {
            DispatchQueue.main.async { ran.store(Thread.isMainThread) }
        }
        pump(until: { ran.load() == true })
    }

    func testQueueSchedulerMainRunsInsideGLibsLoop() {
        let ran = Locked(false as Bool?)
        QueueScheduler.main.schedule(after: .milliseconds(1)) { ran.store(true) }
        pump(until: { ran.load() == true })
    }

    func testMainActorTasksRunInsideGLibsLoop() {
        let ran = Locked(false as Bool?)
        Task { @MainActor in ran.store(Thread.isMainThread) }
        pump(until: { ran.load() == true })
    }
}
