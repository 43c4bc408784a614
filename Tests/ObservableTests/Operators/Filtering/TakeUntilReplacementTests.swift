import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `take(untilReplacement:)`, after RACSignalSpec's `-takeUntilReplacement:` cases.
final class TakeUntilReplacementTests: ResourceCheckedTestCase {
    func testForwardsValuesFromTheReceiverUntilItIsReplaced() {
        let receiver = Subject<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        receiver.take(untilReplacement: replacement).record(into: log)
        receiver.send(1)
        receiver.send(2)
        replacement.send(3)
        receiver.send(4)  // after the replacement: not forwarded
        replacement.send(5)
        XCTAssertEqual(log.values, [1, 2, 3, 5])
        replacement.sendCompleted()
    }

    func testForwardsErrorFromTheReceiver() {
        let receiver = ProbeSource<Int, TestError>()
        let replacement = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        receiver.signal.take(untilReplacement: replacement.signal).record(into: log)
        receiver.send(1)
        receiver.sendError(TestError(7))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(7))])
        XCTAssertEqual(replacement.disposals, 1, "the error ends the replacement's subscription too")
    }

    func testDoesNotForwardCompletedFromTheReceiver() {
        let receiver = Subject<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        let subscription = receiver.take(untilReplacement: replacement).record(into: log)
        receiver.send(1)
        receiver.sendCompleted()
        XCTAssertEqual(log.events, [.next(1)])
        replacement.send(2)
        XCTAssertEqual(log.events, [.next(1), .next(2)])
        subscription.dispose()
    }

    func testForwardsErrorFromTheReplacementSignal() {
        let receiver = ProbeSource<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        receiver.signal.take(untilReplacement: replacement).record(into: log)
        receiver.send(1)
        replacement.sendError(TestError(3))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(3))])
        XCTAssertEqual(receiver.disposals, 1)
    }

    func testForwardsCompletedFromTheReplacementSignal() {
        let receiver = ProbeSource<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        receiver.signal.take(untilReplacement: replacement).record(into: log)
        receiver.send(1)
        replacement.sendCompleted()
        XCTAssertEqual(log.events, [.next(1), .completed])
        XCTAssertEqual(receiver.disposals, 1)
    }

    func testDisposesOfTheReceiverWhenReplacedBeforeForwardingTheReplacement() {
        let receiver = ProbeSource<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let disposalsSeen = Counter()
        receiver.signal.take(untilReplacement: replacement)
            .subscribe(next: { _ in disposalsSeen.increment(by: receiver.disposals) })
        replacement.send(1)
        XCTAssertEqual(disposalsSeen.value, 1, "the receiver was disposed before the value arrived")
        receiver.send(2)
        replacement.sendCompleted()
    }

    func testDisposalDisposesReceiverAndReplacement() {
        let receiver = ProbeSource<Int, TestError>()
        let replacement = ProbeSource<Int, TestError>()
        let subscription = receiver.signal.take(untilReplacement: replacement.signal).subscribe()
        XCTAssertEqual(receiver.subscriptions, 1)
        XCTAssertEqual(replacement.subscriptions, 1)
        subscription.dispose()
        XCTAssertEqual(receiver.disposals, 1)
        XCTAssertEqual(replacement.disposals, 1)
    }

    func testReplacementSendingDuringSubscriptionNeverSubscribesReceiver() {
        let receiver = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        receiver.signal.take(untilReplacement: Signal(values: [9])).record(into: log)
        XCTAssertEqual(log.events, [.next(9), .completed])
        XCTAssertEqual(receiver.subscriptions, 0)
    }

    func testTakeUntilReplacementOnVirtualTime() {
        let scheduler = TestScheduler()
        let receiver = VirtualTimeSignal<Int>(scheduler, [(1, .next(1)), (2, .next(2)), (3, .completed)])
        let replacement = VirtualTimeSignal<Int>(scheduler, [(4, .next(10)), (5, .next(11)), (6, .completed)])
        let recorder = VirtualTimeRecorder<Int, TestError>(scheduler)
        recorder.record(receiver.signal.take(untilReplacement: replacement.signal))
        scheduler.run()
        recorder.assertEvents([(1, .next(1)), (2, .next(2)), (4, .next(10)), (5, .next(11)), (6, .completed)])
        XCTAssertEqual(receiver.disposals.value, 1)
        XCTAssertEqual(replacement.disposals.value, 1)
    }

    func testReplacementFromAnotherThreadKeepsEventsSerialized() {
        let receiver = Subject<Int, Never>()
        let replacement = Subject<Int, Never>()
        let detector = OverlapDetector()
        let log = EventLog<Int, Never>()
        receiver.take(untilReplacement: replacement)
            .subscribeEvents { event in
                detector.enter()
                log.append(event)
                detector.leave()
            }
        runThreads(2) { index in
            for value in 0..<200 {
                if index == 0 { receiver.send(value) } else { replacement.send(1000 + value) }
            }
        }
        replacement.sendCompleted()
        XCTAssertEqual(detector.overlaps, 0)
        let values = log.values
        let firstReplacement = values.firstIndex { $0 >= 1000 } ?? values.count
        XCTAssertTrue(values[firstReplacement...].allSatisfy { $0 >= 1000 }, "no receiver value after replacement")
        XCTAssertEqual(values.filter { $0 >= 1000 }, Array(1000..<1200))
        XCTAssertEqual(log.events.last, .completed)
    }
}
