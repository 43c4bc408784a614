import Binding
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// A value without `==`: the channel can only count echoes.
private struct Opaque: Sendable {
    let number: Int
}

/// Two-way channels whose two sides are set from two threads at once (issue 15, item 5): with echo
/// suppression per thread, 2 × 200 sets made up to 160,000 deliveries, the sides sending each other's
/// values back and forth. The channel now expects the echo of each set it makes, whatever thread delivers
/// it, so a change is sent on once.
final class ChannelStressTests: ResourceCheckedTestCase {
    private let setsPerSide = 200

    /// Both sides ping-ponging is what RAC's "should not echo changes back to the channel" forbids; with
    /// `Equatable` values the sides also settle on the same value: the last one a thread set.
    ///
    /// The bound is exact, not a margin. Each delivery counted is a property's change notification: one
    /// of the `2 × sets` sets the threads make, or a set the link makes. The link makes a set only when it
    /// sends a notification on, once per notification, and sends on only notifications that no expected
    /// echo explains. A `MutableProperty` delivers every set, in the order of the sets, and the link's sets
    /// on one property are made in the order their echoes are announced (each is made from inside the
    /// other property's delivery, which one thread at a time makes); so each of the link's sets is heard
    /// while its echo is expected — also when the set is queued behind another thread's delivery and heard
    /// after it returned — and is never sent on. The link therefore makes at most one set per thread set:
    /// at most `2 × (2 × sets)` deliveries. (CI once counted 2,007: a set queued behind the other
    /// thread's delivery delivered nothing during the set, the link took that for a setter that stored
    /// nothing and stopped expecting its echo, and the echo, heard later, was sent back and forth.)
    func testShouldNotEchoChangesBackToTheChannelWhenBothSidesAreSetFromTwoThreads() {
        let sets = setsPerSide
        for round in 0..<StressScale.scaled(50) {
            let left = MutableProperty(0)
            let right = MutableProperty(-1)
            let deliveries = Atomic<Int>(0)
            let counters = [left.signal, right.signal].map { signal in
                signal.subscribe(next: { _ in deliveries.add(1, ordering: .relaxed) })
            }
            let link = left.channel() <~> right.channel()
            XCTAssertEqual(left.value, -1)
            let before = deliveries.load(ordering: .relaxed)

            runThreads(2) { index in
                let property = index == 0 ? left : right
                let base = index == 0 ? 0 : 1_000
                for number in 1...sets {
                    property.value = base + number
                    spin(500)  // spreads the sets out so that the two threads' sets interleave
                }
            }

            waitUntil(timeout: 10) { left.value == right.value }
            let made = deliveries.load(ordering: .relaxed) - before
            XCTAssertLessThanOrEqual(made, 2 * 2 * sets, "round \(round): deliveries for \(2 * sets) sets")
            XCTAssertTrue(
                [sets, 1_000 + sets].contains(left.value),
                "round \(round): both sides end on a thread's last value, not \(left.value)")
            XCTAssertEqual(left.value, right.value, "round \(round)")

            // The link still works both ways: no echo is left expected.
            left.value = 5_000
            XCTAssertEqual(right.value, 5_000, "round \(round)")
            right.value = 6_000
            XCTAssertEqual(left.value, 6_000, "round \(round)")

            link.dispose()
            for counter in counters { counter.dispose() }
        }
    }

    /// A set the link makes while another thread is delivering the property is queued behind that
    /// delivery and heard after the set returned, on the delivering thread: it is still the link's echo,
    /// not a change to send back (nor a set that stored nothing). The change it overwrites, delivered
    /// first, is not sent on either. (Made deterministic: a subscriber of `right` holds its delivery.)
    func testASetQueuedBehindAnotherThreadsDeliveryIsStillRecognizedAsItsEcho() {
        let left = MutableProperty(0)
        let right = MutableProperty(0)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Subscribed before the link: called before the link hears the value, on the delivering thread.
        let holder = right.signal.subscribe(next: { value in
            if value == 1_001 {
                holding.signal()
                release.wait()
            }
        })
        let leftValues = Mutex<[Int]>([])
        let leftSubscription = left.signal.subscribe(next: { value in leftValues.withLock { $0.append(value) } })
        let link = left.channel() <~> right.channel()

        let delivered = startThread { right.value = 1_001 }
        guard waitOrFail(holding, "the delivery of 1001 on right") else { return }
        left.value = 1  // the link's set of right = 1 is queued behind the delivery of 1001
        release.signal()
        waitOrFail(delivered, "the end of the delivery on right")

        XCTAssertEqual(right.value, 1)
        XCTAssertEqual(left.value, 1, "right's 1001 is overwritten by the link's set: not sent on")
        XCTAssertEqual(leftValues.withLock { $0 }, [0, 1], "nothing came back to left")

        // No echo is left expected: the link still works both ways.
        right.value = 7
        XCTAssertEqual(left.value, 7)
        left.value = 8
        XCTAssertEqual(right.value, 8)
        link.dispose()
        leftSubscription.dispose()
        holder.dispose()
    }

    /// Without `==`, each notification after a set counts as its echo: deliveries stay bounded.
    func testNonEquatableValuesSetFromTwoThreadsDoNotPingPong() {
        let sets = setsPerSide
        for round in 0..<StressScale.scaled(50) {
            let left = MutableProperty(Opaque(number: 0))
            let right = MutableProperty(Opaque(number: -1))
            let deliveries = Atomic<Int>(0)
            let counters = [left.signal, right.signal].map { signal in
                signal.subscribe(next: { _ in deliveries.add(1, ordering: .relaxed) })
            }
            let link = left.channel() <~> right.channel()
            let before = deliveries.load(ordering: .relaxed)

            runThreads(2) { index in
                let property = index == 0 ? left : right
                let base = index == 0 ? 0 : 1_000
                for number in 1...sets {
                    property.value = Opaque(number: base + number)
                    spin(500)
                }
            }

            let made = deliveries.load(ordering: .relaxed) - before
            XCTAssertLessThanOrEqual(made, 4 * 2 * sets, "round \(round): deliveries for \(2 * sets) sets")

            // Quiet again, the link works both ways.
            left.value = Opaque(number: 5_000)
            XCTAssertEqual(right.value.number, 5_000, "round \(round)")
            right.value = Opaque(number: 6_000)
            XCTAssertEqual(left.value.number, 6_000, "round \(round)")

            link.dispose()
            for counter in counters { counter.dispose() }
        }
    }
}
