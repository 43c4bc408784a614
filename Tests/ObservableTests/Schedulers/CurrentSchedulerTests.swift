import Dispatch
import Foundation
import Observable
import XCTest

/// `currentScheduler` (RAC's `+[RACScheduler currentScheduler]`): the scheduler whose work is running.
final class CurrentSchedulerTests: XCTestCase {
    func testCurrentSchedulerIsTheTestSchedulerInsideItsWorkAndRestoredAfterIt() {
        let scheduler = TestScheduler()
        let seen = SchedulerTestBox<[ObjectIdentifier?]>([])
        scheduler.schedule { seen.value.append(currentScheduler.map { ObjectIdentifier($0) }) }
        scheduler.schedule(after: .seconds(1)) { seen.value.append(currentScheduler.map { ObjectIdentifier($0) }) }
        let before = currentScheduler.map { ObjectIdentifier($0) }
        scheduler.run()
        XCTAssertEqual(seen.value, [ObjectIdentifier(scheduler), ObjectIdentifier(scheduler)])
        XCTAssertEqual(currentScheduler.map { ObjectIdentifier($0) }, before)
    }

    func testNestedSchedulersSeeTheInnermostAndGetTheOuterBack() {
        let outer = TestScheduler()
        let inner = TestScheduler()
        let seen = SchedulerTestBox<[ObjectIdentifier?]>([])
        @Sendable func record() { seen.value.append(currentScheduler.map { ObjectIdentifier($0) }) }
        outer.schedule {
            record()
            inner.schedule { record() }
            inner.advance()
            record()
        }
        outer.advance()
        XCTAssertEqual(seen.value, [ObjectIdentifier(outer), ObjectIdentifier(inner), ObjectIdentifier(outer)])
    }

    func testImmediateSchedulerLeavesTheCurrentSchedulerAsItWas() {
        let scheduler = TestScheduler()
        let seen = SchedulerTestBox<ObjectIdentifier?>(nil)
        scheduler.schedule {
            ImmediateScheduler.shared.schedule { seen.value = currentScheduler.map { ObjectIdentifier($0) } }
        }
        scheduler.advance()
        XCTAssertEqual(seen.value, ObjectIdentifier(scheduler))
    }

    func testCurrentSchedulerIsTheQueueSchedulerInsideItsWorkAndNilOnAPlainQueue() {
        let scheduler = QueueScheduler(name: "current")
        let seen = SchedulerTestBox<[ObjectIdentifier?]>([])
        let done = expectation(description: "ran")
        scheduler.schedule {
            seen.value.append(currentScheduler.map { ObjectIdentifier($0) })
            scheduler.schedule(after: .milliseconds(1)) {
                seen.value.append(currentScheduler.map { ObjectIdentifier($0) })
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value, [ObjectIdentifier(scheduler), ObjectIdentifier(scheduler)])
        // The same queue, reached without the scheduler, runs no scheduler's work; nor does a plain queue.
        scheduler.queue.sync { XCTAssertNil(currentScheduler) }
        DispatchQueue(label: "plain").sync { XCTAssertNil(currentScheduler) }
    }

    func testCurrentSchedulerIsNilOnAThreadOfYourOwn() {
        let seen = SchedulerTestBox<Bool?>(nil)
        let done = expectation(description: "thread ran")
        let thread = Thread {
            seen.value = currentScheduler == nil
            done.fulfill()
        }
        thread.start()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value, true)
    }

    func testCurrentSchedulerIsTheMainSchedulerOnTheMainQueue() {
        let seen = SchedulerTestBox<[Bool]>([])
        let done = expectation(description: "ran on main")
        // Through the scheduler, and through the bare main queue (RAC: "on the main thread").
        QueueScheduler.main.schedule { seen.value.append(currentScheduler === QueueScheduler.main) }
        DispatchQueue.main.async {
            seen.value.append(currentScheduler === QueueScheduler.main)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value, [true, true])
    }

    func testCurrentSchedulerIsTheActorSchedulerInsideItsWork() {
        let actorScheduler = ActorScheduler.main
        let seen = SchedulerTestBox<Bool?>(nil)
        let done = expectation(description: "ran on the actor")
        actorScheduler.schedule {
            seen.value = currentScheduler === actorScheduler
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value, true)
    }
}

/// A mutable value shared with scheduled work that runs one item at a time (serial queues, the test
/// scheduler) and read after it, behind an expectation or an advance.
final class SchedulerTestBox<Wrapped>: @unchecked Sendable {
    var value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}
