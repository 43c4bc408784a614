import Binding
import Foundation
import Observable
import Synchronization
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
            XCTAssertLessThanOrEqual(made, 4 * 2 * sets, "round \(round): deliveries for \(2 * sets) sets")
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
