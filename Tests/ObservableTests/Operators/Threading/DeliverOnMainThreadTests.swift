import Dispatch
import Foundation
import Observable
import TetherTestSupport
import XCTest

/// `deliverOnMainThread()`, after RAC 2.5's `-deliverOnMainThread`: main-queue delivery, synchronous when
/// the event is sent on the main queue with nothing waiting.
final class DeliverOnMainThreadTests: XCTestCase {
    func testAnEventSentOnTheMainQueueWithNothingWaitingIsDeliveredBeforeSendReturns() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let subscription = subject.deliverOnMainThread().record(into: log)
        let countsRightAfterSend = SchedulerTestBox<[Int]>([])
        let done = expectation(description: "sent on main")
        QueueScheduler.main.schedule {
            subject.send(1)
            countsRightAfterSend.value.append(log.count)
            subject.send(2)
            countsRightAfterSend.value.append(log.count)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(countsRightAfterSend.value, [1, 2])
        XCTAssertEqual(log.values, [1, 2])
        subscription.dispose()
    }

    func testEventsSentFromAnotherThreadArriveOnTheMainQueueInOrder() {
        let subject = Subject<Int, Never>()
        let values = SchedulerTestBox<[Int]>([])
        let onMain = SchedulerTestBox<[Bool]>([])
        let completed = expectation(description: "completed on main")
        subject.deliverOnMainThread().subscribe(
            next: { value in
                values.value.append(value)
                onMain.value.append(QueueScheduler.main.isCurrent)
            },
            completed: {
                onMain.value.append(QueueScheduler.main.isCurrent)
                completed.fulfill()
            })
        DispatchQueue(label: "sender").async {
            for value in 0..<200 { subject.send(value) }
            subject.sendCompleted()
        }
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(values.value, Array(0..<200))
        XCTAssertEqual(onMain.value, Array(repeating: true, count: 201))
    }

    func testAnEventSentOnTheMainQueueWhileAnEarlierOneWaitsIsQueuedBehindIt() {
        let subject = Subject<String, Never>()
        let log = EventLog<String, Never>()
        subject.deliverOnMainThread().record(into: log)
        let countAfterMainSend = SchedulerTestBox<Int?>(nil)
        let done = expectation(description: "both delivered")
        QueueScheduler.main.schedule {
            // Sent from another thread while the main queue is busy here: it waits for the main queue.
            DispatchQueue(label: "sender").sync { subject.send("from the background") }
            subject.send("from main")
            countAfterMainSend.value = log.count
            QueueScheduler.main.schedule { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(countAfterMainSend.value, 0, "the main-queue event did not overtake the waiting one")
        XCTAssertEqual(log.values, ["from the background", "from main"])
    }

    func testDisposingDropsEventsStillWaitingForTheMainQueue() {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let subscription = subject.deliverOnMainThread().record(into: log)
        let done = expectation(description: "main queue drained")
        QueueScheduler.main.schedule {
            DispatchQueue(label: "sender").sync { subject.send(1) }
            subscription.dispose()
            QueueScheduler.main.schedule { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.count, 0)
    }

    func testErrorsAndCompletionTakeTheSamePath() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        let done = expectation(description: "sent on main")
        subject.deliverOnMainThread().record(into: log)
        QueueScheduler.main.schedule {
            subject.send(1)
            subject.sendError(TestError(7))
            subject.send(2)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.events.count, 2)
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(log.events.last?.error, TestError(7))
    }
}
