import Observable
import Synchronization
import XCTest

/// `renewIfFinished()`: a flattening operator reuses the lifetime of an inner signal that has ended for the next
/// inner (issue 20, W5). Only a composite whose disposal has finished and that never handed out a key but the
/// first may be renewed: a key of an earlier life must not remove a child of the next.
final class CompositeDisposableRenewTests: XCTestCase {
    func testADisposedCompositeThatHeldOneChildIsRenewedEmptyAndDisposesWhatIsAddedAfter() {
        let runs = Mutex<[String]>([])
        let composite = CompositeDisposable()
        composite.add { runs.withLock { $0.append("first life") } }
        composite.dispose()
        XCTAssertTrue(composite.renewIfFinished())
        XCTAssertFalse(composite.isDisposed)
        XCTAssertEqual(composite.count, 0, "a renewed composite holds nothing")
        XCTAssertNotNil(composite.add { runs.withLock { $0.append("second life") } })
        composite.dispose()
        XCTAssertTrue(composite.isDisposed)
        XCTAssertEqual(runs.withLock { $0 }, ["first life", "second life"], "each child ran once")
    }

    func testAnEmptyDisposedCompositeIsRenewed() {
        let composite = CompositeDisposable()
        composite.dispose()
        XCTAssertTrue(composite.renewIfFinished())
        XCTAssertFalse(composite.isDisposed)
    }

    func testACompositeIsNotRenewedBeforeItIsDisposed() {
        let runs = Mutex(0)
        let composite = CompositeDisposable()
        composite.add { runs.withLock { $0 += 1 } }
        XCTAssertFalse(composite.renewIfFinished())
        XCTAssertEqual(composite.count, 1, "the child is still held")
        composite.dispose()
        XCTAssertEqual(runs.withLock { $0 }, 1)
    }

    func testACompositeThatHandedOutASecondKeyIsNotRenewed() {
        let composite = CompositeDisposable()
        composite.add {}
        let second = composite.add {}
        XCTAssertNotNil(second)
        composite.dispose()
        XCTAssertFalse(composite.renewIfFinished(), "someone may still hold the second key")
        XCTAssertTrue(composite.isDisposed, "it stays disposed")
        let added = Mutex(false)
        XCTAssertNil(composite.add { added.withLock { $0 = true } }, "adding to it disposes at once")
        XCTAssertTrue(added.withLock { $0 })
    }

    func testACompositeWhoseOnlyChildWasRemovedByAKeyOtherThanTheFirstIsNotRenewed() {
        let composite = CompositeDisposable()
        let first = composite.add {}
        if let first { composite.remove(first) }
        composite.add {}
        composite.dispose()
        XCTAssertFalse(composite.renewIfFinished())
    }
}
