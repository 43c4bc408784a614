import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `Observer.send(_:)` hands a value to a values-only subscriber as it was passed, without making an
/// event of it; a subscriber that takes events still gets it as `.next`. These pin down that the values,
/// their order (in place and queued behind a reentrant send) and their ownership are unchanged: every
/// value sent is delivered once, and freed once nobody holds it.
final class ObserverValueDeliveryTests: ResourceCheckedTestCase {
    /// An address-only value (it holds an `Any`, as `Notification` does) that owns an object.
    private struct Payload {
        let tag: Int
        let attachment: Any
    }

    func testAValuesOnlySubscriberGetsEachValueTheObserverSendsAndTheValuesAreFreedAfterDelivery() {
        weak var firstWeakly: Tracked?
        weak var secondWeakly: Tracked?
        var tags: [Int] = []
        var attachedIDs: [Int] = []
        do {
            let first = Tracked(1)
            let second = Tracked(2)
            firstWeakly = first
            secondWeakly = second
            let signal = Signal<Payload, Never> { observer in
                observer.send(Payload(tag: 10, attachment: first))
                observer.send(Payload(tag: 20, attachment: second))
                return nil
            }
            let subscription = signal.subscribe(next: { payload in
                tags.append(payload.tag)
                attachedIDs.append((payload.attachment as? Tracked)?.id ?? -1)
            })
            subscription.dispose()
        }
        XCTAssertEqual(tags, [10, 20])
        XCTAssertEqual(attachedIDs, [1, 2], "each value arrives whole, its object included")
        XCTAssertNil(firstWeakly, "a delivered value is not kept")
        XCTAssertNil(secondWeakly, "a delivered value is not kept")
    }

    func testAnEventSubscriberGetsEachValueTheObserverSendsAsANextEventBeforeTheCompletion() {
        weak var attachmentWeakly: Tracked?
        var events: [String] = []
        do {
            let attachment = Tracked(7)
            attachmentWeakly = attachment
            let signal = Signal<Payload, Never> { observer in
                observer.send(Payload(tag: 1, attachment: attachment))
                observer.send(Payload(tag: 2, attachment: attachment))
                observer.sendCompleted()
                return nil
            }
            signal.subscribe(
                next: { payload in events.append("next \(payload.tag) \((payload.attachment as? Tracked)?.id ?? -1)") },
                completed: { events.append("completed") })
        }
        XCTAssertEqual(events, ["next 1 7", "next 2 7", "completed"])
        XCTAssertNil(attachmentWeakly, "the values are freed once delivered and the subscription ended")
    }

    func testAValueSentFromInsideAValuesOnlySubscriberIsDeliveredAfterTheCurrentOneInOrder() {
        var received: [Int] = []
        let sendFromCallback = Locked<((Int) -> Void)?>(nil)
        let signal = Signal<Int, Never> { observer in
            sendFromCallback.value = { observer.send($0) }
            observer.send(1)
            return nil
        }
        let subscription = signal.subscribe(next: { value in
            received.append(value)
            if value == 1 {
                let send = sendFromCallback.value
                send?(2)
                send?(3)
                received.append(-1)  // still inside the callback for 1: 2 and 3 wait
            }
        })
        XCTAssertEqual(received, [1, -1, 2, 3])
        subscription.dispose()
        sendFromCallback.value?(4)
        XCTAssertEqual(received, [1, -1, 2, 3], "nothing arrives after disposal")
        sendFromCallback.value = nil
    }
}
