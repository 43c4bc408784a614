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

    /// Issue 42, bug 1: several modifiers and several setters, and an observer that resets the value with a
    /// set. The thread delivering is inside a `modify`'s final store, calling the observer, whose set waits
    /// for the next `modify`; that `modify` ends and wakes one writer — which must not keep the wake while it
    /// parks for room in the backlog (the delivering thread, the one that makes room, is parked behind it).
    func testSeveralModifiersAndSettersWithAResettingObserverAllReturn() {
        let rounds = 6
        let modifies = StressScale.scaled(3_000)
        let sets = StressScale.scaled(20_000)
        for round in 0..<rounds {
            let property = MutableProperty(0)
            let subscription = property.signal.subscribe(next: { value in
                if value > 100 { property.value = 0 }
            })
            let modified = Atomic<Int>(0)
            let finished = runThreads(6, timeout: 120) { index in
                if index < 3 {
                    for _ in 0..<modifies {
                        property.modify { $0 += 1 }
                        modified.wrappingAdd(1, ordering: .relaxed)
                    }
                } else {
                    for step in 0..<sets { property.value = step % 150 }
                }
            }
            XCTAssertTrue(finished, "round \(round): 3 modifiers, 3 setters and a resetting observer did not return")
            guard finished else { return }
            XCTAssertEqual(modified.load(ordering: .relaxed), 3 * modifies)
            XCTAssertLessThanOrEqual(property.value, 100, "the observer resets every value past 100")
            subscription.dispose()
        }
    }
}
