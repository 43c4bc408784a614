import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

@testable import Bridges

/// White-box: the disposable behind each notification subscription must remove its observer exactly once,
/// because on Linux removing a stale token unregisters a later observer of the same name.
final class NotificationObservationTests: ResourceCheckedTestCase {
    func testFoundationRemovesALaterObserverWhenAStaleTokenIsRemoved() {
        // Documents the Foundation behaviour the bridge guards against (fails if Foundation fixes it).
        let center = NotificationCenter()
        let name = Notification.Name("BridgesTests.stale")
        let count = Counter()
        let stale = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
        center.removeObserver(stale)
        let later = center.addObserver(forName: name, object: nil, queue: nil) { _ in count.increment() }
        center.removeObserver(stale)
        center.post(name: name, object: nil)
        XCTAssertEqual(count.value, 0, "Foundation no longer recycles tokens: the guard may be unnecessary")
        center.removeObserver(later)
    }

    func testDisposingTwiceRemovesTheObserverOnlyOnce() {
        let center = NotificationCenter()
        let name = Notification.Name("BridgesTests.once")
        let first = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
        let observation = NotificationObservation(center: center, token: first)
        observation.dispose()
        let count = Counter()
        let later = center.addObserver(forName: name, object: nil, queue: nil) { _ in count.increment() }
        observation.dispose()
        observation.dispose()
        center.post(name: name, object: nil)
        XCTAssertEqual(count.value, 1)
        XCTAssertTrue(observation.isDisposed)
        center.removeObserver(later)
    }
}
