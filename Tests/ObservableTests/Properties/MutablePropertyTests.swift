import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class MutablePropertyTests: ResourceCheckedTestCase {
    func testValueReadsWhatWasSet() {
        let property = MutableProperty(1)
        XCTAssertEqual(property.value, 1)
        property.value = 2
        property.value += 3
        XCTAssertEqual(property.value, 5)
    }

    func testSignalSendsTheCurrentValueThenEverySetIncludingEqualOnes() {
        let property = MutableProperty("a")
        let log = EventLog<String, Never>()
        property.signal.record(into: log)
        property.value = "b"
        property.value = "b"
        XCTAssertEqual(log.values, ["a", "b", "b"])
    }

    func testOperatorsApplyToThePropertyDirectly() {
        let property = MutableProperty(1)
        let log = EventLog<Int, Never>()
        property.filter { $0 > 1 }.record(into: log)
        property.value = 2
        XCTAssertEqual(log.values, [2])
    }

    func testModifyChangesInPlaceReturnsTheResultAndNotifiesOnce() {
        let property = MutableProperty([1])
        let log = EventLog<[Int], Never>()
        property.signal.record(into: log)
        let count = property.modify { list -> Int in
            list.append(2)
            list.append(3)
            return list.count
        }
        XCTAssertEqual(count, 3)
        XCTAssertEqual(property.value, [1, 2, 3])
        XCTAssertEqual(log.values, [[1], [1, 2, 3]])
    }

    func testModifyThatThrowsKeepsItsChangesNotifiesAndRethrows() {
        let property = MutableProperty(0)
        let log = EventLog<Int, Never>()
        property.signal.record(into: log)
        XCTAssertThrowsError(
            try property.modify { value in
                value = 7
                throw TestError(3)
            }
        ) { error in
            XCTAssertEqual(error as? TestError, TestError(3))
        }
        XCTAssertEqual(property.value, 7)
        XCTAssertEqual(log.values, [0, 7])
    }

    func testSignalCompletesWhenThePropertyDeinitializesAndDoesNotKeepItAlive() {
        var property: MutableProperty<Int>? = MutableProperty(0)
        weak let weakProperty = property
        let log = EventLog<Int, Never>()
        let subscription = property!.signal.record(into: log)
        property!.value = 1
        property = nil
        XCTAssertNil(weakProperty)
        XCTAssertEqual(log.events, [.next(0), .next(1), .completed])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSignalSubscribedAfterThePropertyIsGoneSendsTheLastValueAndCompletes() {
        var property: MutableProperty<Int>? = MutableProperty(0)
        let signal = property!.signal
        property!.value = 9
        property = nil
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.events, [.next(9), .completed])
    }

    func testDisposingStopsDeliveryAndReleasesTheObserver() {
        let property = MutableProperty(0)
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let log = EventLog<Int, Never>()
        let subscription = property.signal.subscribe(next: { [captured] value in
            _ = captured
            log.append(.next(value))
        })
        captured = nil
        subscription.dispose()
        XCTAssertNil(weakCaptured)
        property.value = 1
        XCTAssertEqual(log.values, [0])
    }

    func testSetFromInsideAnObserverIsDeliveredAfterTheCurrentValueToEveryObserver() {
        expectLiveSubscriptions("the observer captures the observed object")
        let property = MutableProperty(0)
        let order = EventLog<String, Never>()
        property.signal.subscribe(next: { value in
            order.append(.next("A\(value)"))
            if value == 1 { property.value = 2 }
        })
        property.signal.subscribe(next: { order.append(.next("B\($0)")) })
        property.value = 1
        XCTAssertEqual(order.values, ["A0", "B0", "A1", "B1", "A2", "B2"])
        XCTAssertEqual(property.value, 2)
    }

    func testSubscribingFromInsideAnObserverStartsAtTheValueCurrentThen() {
        expectLiveSubscriptions("the observer captures the observed object")
        let property = MutableProperty(0)
        let inner = EventLog<Int, Never>()
        let holder = SubscriptionHolder()
        property.signal.subscribe(next: { value in
            if value == 1, holder.subscription == nil {
                holder.subscription = property.signal.record(into: inner)
            }
        })
        property.value = 1
        property.value = 2
        XCTAssertEqual(inner.values, [1, 2])
    }

    func testIsSendableWhenItsValueIs() {
        func requireSendable<T: Sendable>(_ value: T) -> T { value }
        let property = requireSendable(MutableProperty(0))
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { property.value = 1 }
        group.wait()
        XCTAssertEqual(property.value, 1)
    }

    func testSetsFromSeveralThreadsAreAllStoredAndDeliveredInOrder() {
        let property = MutableProperty(0)
        let log = EventLog<Int, Never>()
        property.signal.record(into: log)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { property.modify { $0 += 1 } }
        }
        XCTAssertEqual(property.value, 8_000)
        XCTAssertEqual(log.values, Array(0...8_000), "each increment is delivered once, in order")
    }

    /// Under `--sanitize=thread`: sets from several threads while observers subscribe and dispose on
    /// other threads. Each observer must see consecutive values starting at its initial value (never a
    /// set from before it), and nothing after its disposal returned; a subscription queued behind
    /// another thread's delivery gets its turn (each waits for its first value before disposing).
    func testObserversComingAndGoingWhileSeveralThreadsSet() {
        let property = MutableProperty(0)
        let violations = Counter()
        let delivered = Counter()
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            if worker < 3 {
                for _ in 0..<1_500 { property.modify { $0 += 1 } }
                return
            }
            for _ in 0..<150 {
                let probe = SequenceProbe()
                let subscription = property.signal.subscribe(next: { value in probe.receive(value) })
                for _ in 0..<3 { property.modify { $0 += 1 } }
                // Watchdog only: the delivering thread serves a queued subscription whatever the load.
                if probe.firstValue.wait(timeout: .now() + 60) == .timedOut {
                    violations.increment(by: 1_000_000)
                }
                subscription.dispose()
                probe.markDisposed()
                violations.increment(by: probe.violations)
                delivered.increment(by: probe.count)
            }
        }
        XCTAssertEqual(property.value, 3 * 1_500 + 3 * 150 * 3)
        XCTAssertEqual(violations.value, 0, "no gap, nothing after dispose, no subscription left unserved")
        XCTAssertGreaterThanOrEqual(delivered.value, 3 * 150, "every subscription got its initial value")
    }

    func testASubscriptionToAnIdlePropertyReceivesTheCurrentValueBeforeSubscribeReturns() {
        let property = MutableProperty(41)
        property.value = 42
        var received: [Int] = []
        let subscription = property.signal.subscribe(next: { received.append($0) })
        XCTAssertEqual(received, [42])
        subscription.dispose()
    }
}

/// Checks, from inside an observer, that values arrive consecutively and not after disposal.
final class SequenceProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var last: Int?
    private var disposed = false
    private(set) var violations = 0
    private(set) var count = 0
    /// Signalled when the first value arrives.
    let firstValue = DispatchSemaphore(value: 0)

    func receive(_ value: Int) {
        lock.withLock {
            count += 1
            if count == 1 { firstValue.signal() }
            if disposed { violations += 1 }
            if let last, value != last + 1 { violations += 1 }
            last = value
        }
    }

    func markDisposed() {
        lock.withLock { disposed = true }
    }
}
