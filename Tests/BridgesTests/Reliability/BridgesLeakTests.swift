import Bridges
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// Leak checks for the bridges: what a subscription holds is freed when it ends, even when nobody
/// disposed it.
final class BridgesLeakTests: ResourceCheckedTestCase {
    func testReleasingAPrivateCenterFreesTheBridgedSubscriptionsNobodyDisposed() {
        weak var centerWeakly: NotificationCenter?
        weak var capturedWeakly: Tracked?
        do {
            let center = NotificationCenter()
            centerWeakly = center
            let captured = Tracked()
            capturedWeakly = captured
            center.signal(for: Notification.Name("BridgesTests.Reliability.private"))
                .subscribe(next: { _ in withExtendedLifetime(captured) {} })
            center.signal(for: TypedNotification<Int>(Notification.Name("BridgesTests.Reliability.typed")))
                .subscribe(next: { _ in withExtendedLifetime(captured) {} })
        }
        XCTAssertNil(centerWeakly, "the subscriptions kept their center alive")
        XCTAssertNil(capturedWeakly, "the subscriptions outlived their center")
    }

    func testAWatchedProcessFreesItsObserverWhenItEndsThoughFoundationKeepsTheProcessObject() throws {
        weak var capturedWeakly: Tracked?
        do {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exit 3"]
            let captured = Tracked()
            capturedWeakly = captured
            let ended = expectation(description: "terminated")
            var exit: ProcessExit?
            Signal.termination(of: process).subscribe(
                next: { exit = $0 },
                completed: {
                    withExtendedLifetime(captured) {}
                    ended.fulfill()
                })
            wait(for: [ended], timeout: 30)
            XCTAssertEqual(exit, .exited(3))
        }
        waitUntil { capturedWeakly == nil }
    }

    func testDisposingAProcessWatchFreesItsObserverWhileTheProcessRuns() throws {
        weak var capturedWeakly: Tracked?
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 30"]
        try process.run()
        defer { process.terminate() }
        do {
            let captured = Tracked()
            capturedWeakly = captured
            Signal.termination(of: process).subscribe(next: { _ in withExtendedLifetime(captured) {} }).dispose()
        }
        XCTAssertNil(capturedWeakly, "the termination handler still holds a disposed subscription")
    }
}
