import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// `modify` while other threads flood the property and an observer clamps with a set (a set from inside an
/// observer is legal): `modify` must not wait for room in the backlog while it still holds the other
/// writers back, since the thread delivering — the one that makes room — is one of them (issue 30, bug 1).
final class MutablePropertyModifyWithClampingObserverTests: ResourceCheckedTestCase {
    func testModifyCompletesWhileTwoThreadsSetAndAnObserverClamps() {
        let property = MutableProperty(0)
        let subscription = property.signal.subscribe(next: { value in
            if value > 100 { property.value = 100 }
        })
        let sets = StressScale.scaled(100_000)
        let modifies = StressScale.scaled(10_000)
        let modified = Atomic<Int>(0)
        let finished = runThreads(3, timeout: 120) { index in
            if index == 2 {
                for _ in 0..<modifies {
                    property.modify { $0 += 1 }
                    modified.wrappingAdd(1, ordering: .relaxed)
                }
            } else {
                for step in 0..<sets { property.value = step % 200 }
            }
        }
        XCTAssertTrue(finished, "modify while an observer clamps with a set did not return")
        guard finished else { return }
        XCTAssertEqual(modified.load(ordering: .relaxed), modifies)
        XCTAssertLessThanOrEqual(property.value, 100, "the observer clamps every value past 100")
        subscription.dispose()
    }

    func testModifyFromInsideAnObserverWhileOtherThreadsSetCompletes() {
        let property = MutableProperty(0)
        let subscription = property.signal.subscribe(next: { value in
            if value > 100 { property.modify { $0 = min($0, 100) } }
        })
        let sets = StressScale.scaled(50_000)
        let finished = runThreads(3, timeout: 120) { index in
            for step in 0..<sets {
                if index == 2 { property.modify { $0 = step % 200 } } else { property.value = step % 200 }
            }
        }
        XCTAssertTrue(finished, "modify inside an observer while other threads set did not return")
        subscription.dispose()
    }
}
