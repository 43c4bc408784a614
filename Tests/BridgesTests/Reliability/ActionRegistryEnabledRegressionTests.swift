import Bridges
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// A control that can be shared between threads (its registry is thread-safe).
private final class SharedButton: ActionSource, @unchecked Sendable {
    let actions = ActionRegistry<SharedButton>()
    private let tapCount = Counter()
    var taps: Int { tapCount.value }

    init() {
        addAction(for: .primaryAction) { [tapCount] _ in tapCount.increment() }
    }

    func click() { sendActions(for: .primaryAction) }
}

/// Issue 14, scenario 7 for the action registry: `isEnabled` is built on a `BehaviorSubject`, so when
/// the subject's `value` lagged behind a queued or reentrant send, a click right after enabling a
/// control was dropped, and a click right after disabling it fired. A set takes effect at once, whatever
/// the `enabled` observers are doing.
///
/// A hang becomes a failure through a watchdog; nothing asserts a duration.
final class ActionRegistryEnabledRegressionTests: ResourceCheckedTestCase {
    /// Sets `isEnabled` to `first` on another thread, where an observer of `enabled` (a slow UI update)
    /// holds the delivery of that change until `body` has run on this thread.
    private func whileAnotherThreadDeliversEnabled(
        _ button: SharedButton, _ first: Bool, file: StaticString = #filePath, line: UInt = #line,
        _ body: () -> Void
    ) {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let seen = Mutex<[Bool]>([])
        let observing = button.actions.enabled.subscribe(next: { enabled in
            seen.withLock { $0.append(enabled) }
            if enabled == first {
                inside.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        })
        let delivered = startThread { button.isEnabled = first }
        guard waitOrFail(inside, "the delivery of isEnabled = \(first)", file: file, line: line) else { return }
        body()
        release.signal()
        guard waitOrFail(delivered, "the queued deliveries", file: file, line: line) else { return }
        XCTAssertEqual(
            seen.withLock { $0 }.first, !first, "the observer saw the value before the change first", file: file,
            line: line)
        observing.dispose()
    }

    func testClickRightAfterEnablingWhileAnotherThreadDeliversAChangeFires() {
        let button = SharedButton()
        whileAnotherThreadDeliversEnabled(button, false) {
            button.isEnabled = true  // queued behind the delivery of `false`
            XCTAssertTrue(button.isEnabled, "isEnabled right after it was set")
            button.click()
            XCTAssertEqual(button.taps, 1, "the click right after enabling fired")
        }
        XCTAssertTrue(button.isEnabled)
    }

    func testClickRightAfterDisablingWhileAnotherThreadDeliversAChangeDoesNotFire() {
        let button = SharedButton()
        button.isEnabled = false
        whileAnotherThreadDeliversEnabled(button, true) {
            button.isEnabled = false  // queued behind the delivery of `true`
            XCTAssertFalse(button.isEnabled, "isEnabled right after it was set")
            button.click()
            XCTAssertEqual(button.taps, 0, "the click right after disabling did not fire")
        }
        XCTAssertFalse(button.isEnabled)
        button.click()
        XCTAssertEqual(button.taps, 0)
    }

    func testClickRightAfterDisablingFromInsideAnEnabledObserverDoesNotFire() {
        let button = SharedButton()
        button.isEnabled = false
        var tapsAfterClick: Int?
        var enabledInside: Bool?
        // A guard that switches the control straight back off, and a click from the same callback.
        let observing = button.actions.enabled.subscribe(next: { enabled in
            guard enabled else { return }
            button.isEnabled = false  // reentrant: queued behind this callback
            enabledInside = button.isEnabled
            button.click()
            tapsAfterClick = button.taps
        })
        button.isEnabled = true
        XCTAssertEqual(enabledInside, false, "isEnabled right after it was set from inside the observer")
        XCTAssertEqual(tapsAfterClick, 0, "the click right after disabling did not fire")
        XCTAssertFalse(button.isEnabled)
        XCTAssertEqual(button.taps, 0)
        observing.dispose()
    }
}
