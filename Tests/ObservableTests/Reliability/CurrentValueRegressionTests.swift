import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Issue 14, scenarios 7 and 8: reading a current value — `BehaviorSubject.value`, `MutableProperty.value`
/// — gives the latest value sent, even while its delivery is queued (behind another thread's delivery or
/// behind the callback that sent it), and never waits for user code (DESIGN.md guarantees 4 and 6).
///
/// A hang becomes a failure through a watchdog; nothing asserts a duration.
final class CurrentValueRegressionTests: ResourceCheckedTestCase {
    // MARK: 7 — BehaviorSubject.value after a queued or a reentrant send

    func testBehaviorSubjectValueIsTheValueJustSentWhileAnotherThreadIsStillDelivering() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = subject.subscribe(next: { value in
            received.withLock { $0.append(value) }
            if value == 1 {
                inside.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        })
        let delivered = startThread { subject.send(1) }
        guard waitOrFail(inside, "the delivery of 1 on another thread") else { return }
        // Each of these sends is queued behind the delivery of 1; `value` is what was just sent.
        for value in 2...5 {
            subject.send(value)
            XCTAssertEqual(subject.value, value, "value right after send(\(value)) returned, queued")
        }
        release.signal()
        guard waitOrFail(delivered, "the queued deliveries") else { return }
        XCTAssertEqual(subject.value, 5)
        XCTAssertEqual(received.withLock { $0 }, [0, 1, 2, 3, 4, 5], "all delivered, in order")
        subscription.dispose()
    }

    func testBehaviorSubjectValueIsTheValueJustSentFromInsideItsOwnSubscriber() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        var received: [Int] = []
        var seenInside: [Int] = []
        let subscription = subject.subscribe(next: { value in
            received.append(value)
            guard value == 1 else { return }
            // Reentrant sends: queued behind this callback; `value` is what was just sent.
            for next in 2...4 {
                subject.send(next)
                seenInside.append(subject.value)
            }
        })
        subject.send(1)
        XCTAssertEqual(seenInside, [2, 3, 4], "value right after each reentrant send returned")
        XCTAssertEqual(subject.value, 4)
        XCTAssertEqual(received, [0, 1, 2, 3, 4], "all delivered, in order, after the callback that sent them")
        subscription.dispose()  // the closure holds the subject
    }

    // MARK: 8 — MutableProperty.modify does not block readers while the user's closure runs

    func testReadingAMutablePropertyWhileAModifyClosureIsBlockedReturnsTheOldValue() {
        let property = MutableProperty(1)
        let modifyRunning = DispatchSemaphore(value: 0)
        let readerRead = DispatchSemaphore(value: 0)
        let read = Atomic<Int>(-1)
        let readerReturned = startThread {
            guard modifyRunning.wait(timeout: .now() + 30) == .success else { return }
            read.store(property.value, ordering: .releasing)
            readerRead.signal()
        }
        // The closure waits for the reader: if a read waits for the closure, both wait until the watchdog.
        let readerGotThrough = property.modify { value -> Bool in
            value = 2
            modifyRunning.signal()
            return readerRead.wait(timeout: .now() + 30) == .success
        }
        XCTAssertTrue(readerGotThrough, "a read of value waited for a running modify closure (30 s watchdog)")
        waitOrFail(readerReturned, "the reader's return")
        XCTAssertEqual(read.load(ordering: .acquiring), 1, "the reader got the value from before the modify")
        XCTAssertEqual(property.value, 2)
    }
}
