import Bridges
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Bad input gets a typed error event, and nothing else is lost or left running: other subscriptions
/// keep working, no observer, descriptor, thread or Tether object is left behind.
final class BridgesBadInputTests: ResourceCheckedTestCase {
    private let scoreChanged = TypedNotification<Int>(Notification.Name("BridgesTests.Reliability.score"))

    func testAMalformedPayloadFailsOnlyThatSubscriptionRemovesItsObserverAndLosesNoOtherPost() {
        let center = NotificationCenter()
        let failing = GrammarMonitor<Int>()
        var failure: BridgeError?
        weak var capturedWeakly: Tracked?
        let failingSubscription: any Disposable
        do {
            let captured = Tracked()
            capturedWeakly = captured
            failingSubscription = center.signal(for: scoreChanged, malformed: .fail).subscribeEvents { event in
                withExtendedLifetime(captured) {}
                if case .error(let error) = event { failure = error }
                failing.receive(event)
            }
        }
        let skipping = GrammarMonitor<Int>()
        var skipped: [Int] = []
        skipping.onValue = { skipped.append($0) }
        let skippingSubscription = skipping.subscribe(to: center.signal(for: scoreChanged, malformed: .skip))
        let raw = Counter()
        let rawToken = center.addObserver(forName: scoreChanged.name, object: nil, queue: nil) { _ in raw.increment() }

        center.post(scoreChanged, 1)
        center.post(name: scoreChanged.name, object: nil, userInfo: ["TetherPayload": "not a number"])
        center.post(scoreChanged, 2)
        center.post(name: scoreChanged.name, object: nil, userInfo: nil)
        center.post(scoreChanged, 3)

        guard case .malformedNotification(let name, let reason)? = failure else {
            return XCTFail("expected malformedNotification, got \(String(describing: failure))")
        }
        XCTAssertEqual(name, scoreChanged.name)
        XCTAssertTrue(reason.contains("String"), "the reason names what was found: \(reason)")
        failing.assertWellFormed("failing subscription")
        XCTAssertEqual(failing.nextCount, 1, "1, then the error; nothing after it")
        XCTAssertTrue(failingSubscription.isDisposed, "the error ended the subscription")
        XCTAssertNil(capturedWeakly, "the failed subscription released its closures")
        XCTAssertEqual(skipped, [1, 2, 3], "the skipping subscription lost no well-formed post")
        XCTAssertEqual(raw.value, 5, "other observers of the name are untouched")
        center.removeObserver(rawToken)
        skippingSubscription.dispose()
        // The failed subscription's observer was removed: a post now reaches nothing of it.
        center.post(scoreChanged, 4)
        XCTAssertEqual(failing.nextCount, 1)
    }

    func testAClosedDescriptorFailsWithoutStartingAReaderOrKeepingADescriptor() {
        warmUpDispatch()
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        close(fds[1])
        let before = openDescriptors()
        let readersBefore = threadCount(named: "tether-fd")
        let monitor = GrammarMonitor<String>()
        var failure: BridgeError?
        let subscription = Signal.lines(from: fds[0]).subscribeEvents { event in
            if case .error(let error) = event { failure = error }
            monitor.receive(event)
        }
        XCTAssertEqual(failure, .invalidFileDescriptor(fds[0]))
        monitor.assertWellFormed("closed descriptor")
        XCTAssertEqual(monitor.nextCount, 0)
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertEqual(openDescriptors(), before, "no descriptor opened or kept")
        XCTAssertEqual(threadCount(named: "tether-fd"), readersBefore, "no reader thread started")
        // A good descriptor still works afterwards.
        XCTAssertEqual(pipe(&fds), 0)
        let lines = GrammarMonitor<String>()
        var received: [String] = []
        lines.onValue = { received.append($0) }
        let finished = expectation(description: "completed")
        let good = Signal.lines(from: fds[0]).doCompleted { finished.fulfill() }.subscribeEvents { lines.receive($0) }
        writeAll(fds[1], Array("ok\n".utf8))
        close(fds[1])
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(received, ["ok"])
        good.dispose()
        close(fds[0])
    }

    func testABadSignalNumberFailsWithoutDisturbingAnotherSubscriptionsSignals() {
        let witness = GrammarMonitor<UnixSignal>()
        let received = expectation(description: "SIGUSR1 arrived")
        // Fulfilled after the monitor recorded the event, so the reads below happen after its writes.
        let witnessSubscription = Signal.unixSignals(.user1).subscribeEvents { event in
            witness.receive(event)
            if case .next = event { received.fulfill() }
        }
        for number: Int32 in [0, -3, 65, 1_000] {
            var failure: BridgeError?
            let monitor = GrammarMonitor<UnixSignal>()
            let subscription = Signal.unixSignals(.user1, UnixSignal(rawValue: number)).subscribeEvents { event in
                if case .error(let error) = event { failure = error }
                monitor.receive(event)
            }
            XCTAssertEqual(failure, .invalidSignalNumber(number))
            XCTAssertEqual(monitor.nextCount, 0)
            XCTAssertTrue(subscription.isDisposed)
        }
        kill(getpid(), SIGUSR1)
        wait(for: [received], timeout: 10)
        witness.assertWellFormed("witness")
        XCTAssertEqual(witness.nextCount, 1, "the valid subscription kept its handler")
        witnessSubscription.dispose()
    }
}
