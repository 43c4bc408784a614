import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

private final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}

final class QueueSchedulerTargetQueueTests: ResourceCheckedTestCase {
    func testTargetQueueSchedulerHasTheGivenLabel() {
        let scheduler = QueueScheduler(name: "tether.tests.named", targetQueue: DispatchQueue(label: "target"))
        XCTAssertEqual(scheduler.queue.label, "tether.tests.named")
    }

    func testTargetQueueSchedulerRunsItsWorkThroughTheTargetQueue() {
        let target = DispatchQueue(label: "tether.tests.target")
        let key = DispatchSpecificKey<Int>()
        target.setSpecific(key: key, value: 42)
        let scheduler = QueueScheduler(name: "tether.tests.child", targetQueue: target)
        let ran = expectation(description: "ran on a queue targeting the target queue")
        scheduler.schedule {
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), 42)
            XCTAssertTrue(scheduler.isCurrent)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
    }

    func testTargetQueueSchedulerIsSerialEvenOnAConcurrentTarget() {
        let target = DispatchQueue(label: "tether.tests.concurrent", attributes: .concurrent)
        let scheduler = QueueScheduler(name: "tether.tests.serial", targetQueue: target)
        let log = OrderLog()
        let overlap = OverlapDetector()
        let done = expectation(description: "last action ran")
        for index in 0..<500 {
            scheduler.schedule {
                overlap.enter()
                log.append(index)
                overlap.leave()
                if index == 499 { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<500))
        XCTAssertEqual(overlap.overlaps, 0)
    }
}
