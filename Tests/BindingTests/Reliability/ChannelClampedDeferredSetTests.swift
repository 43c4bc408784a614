import Binding
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// A property channel whose setter clamps, when the channel's set is left for later by the property's gate
/// (queued behind a delivery): once the clamped change has gone by, later changes are sent on again (issue
/// 30, bug 2: the set's echo stayed expected for good, and every later change was taken for one that the
/// pending set overwrites).
final class ChannelClampedDeferredSetTests: ResourceCheckedTestCase {
    func testAClampedSetQueuedBehindADeliveryInsideAnotherSubscriberDoesNotStopTheChannel() {
        let property = MutableProperty(0)
        let terminal = ChannelTerminal(values: property.signal, set: { property.value = min($0, 10) })
        let received = terminal.record()
        // Another subscriber sends on the terminal while the property delivers 1: the set is queued.
        let sender = property.signal.subscribe(next: { value in
            if value == 1 { terminal.send(15) }
        })
        property.value = 1
        XCTAssertEqual(property.value, 10, "the setter clamped")
        property.value = 3
        property.value = 4
        XCTAssertEqual(Array(received.values.prefix(2)), [0, 1])
        XCTAssertFalse(received.values.contains(15), "the value sent on the terminal is not sent back")
        XCTAssertEqual(Array(received.values.suffix(2)), [3, 4], "later changes are sent on: \(received.values)")
        sender.dispose()
    }

    func testAClampedSetQueuedBehindAnotherThreadsDeliveryDoesNotStopTheChannel() {
        let property = MutableProperty(0)
        let terminal = ChannelTerminal(values: property.signal, set: { property.value = min($0, 10) })
        let received = terminal.record()
        // Another thread delivers 1 to a subscriber that holds the gate until the terminal's set is queued.
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let holder = property.signal.subscribe(next: { value in
            if value == 1 {
                inside.signal()
                proceed.wait()
            }
        })
        let delivered = startThread { property.value = 1 }
        guard waitOrFail(inside, within: 60, "the other thread's delivery") else { return }
        terminal.send(15)  // queued behind that delivery
        proceed.signal()
        guard waitOrFail(delivered, within: 60, "the other thread's set") else { return }
        XCTAssertEqual(property.value, 10, "the setter clamped")
        property.value = 3
        property.value = 4
        XCTAssertFalse(received.values.contains(15), "the value sent on the terminal is not sent back")
        XCTAssertEqual(Array(received.values.suffix(2)), [3, 4], "later changes are sent on: \(received.values)")
        holder.dispose()
    }
}
