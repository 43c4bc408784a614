import Foundation
import Synchronization
import TetherTestSupport
import XCTest

@testable import Observable

#if canImport(Glibc)
    import Glibc
#endif

/// The compact `CompositeDisposable`: its first child (a closure or a disposable) is held inline, in one enum
/// with the next key before a second key is handed out and the disposing thread after disposal started.
final class CompositeDisposableLayoutTests: XCTestCase {
    #if canImport(Glibc)
        /// Every subscription makes one `CompositeDisposable` (its lifetime): it must stay in malloc's 48-byte
        /// size class (40 usable bytes). It was 96 bytes (112 in the heap) before issue 20, 56 (64) before
        /// issue 45's second step.
        func testASubscriptionsLifetimeFitsInMallocsFortyEightByteSizeClass() throws {
            let subject = Subject<Int, Never>()
            let sum = Counter()
            let subscription = subject.map { $0 + 1 }.subscribe(next: { sum.increment(by: $0) })
            let lifetime = try XCTUnwrap(subscription as? CompositeDisposable)
            // glibc's `malloc_usable_size` (declared in <malloc.h>, which Glibc does not import).
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try XCTUnwrap(dlsym(nil, "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            let usable = usableSize(Unmanaged.passUnretained(lifetime).toOpaque())
            XCTAssertLessThanOrEqual(usable, 40, "a subscription's lifetime takes \(usable) usable bytes")
            subject.send(1)
            XCTAssertEqual(sum.value, 2)
            // The subject's removal closure is the only child (held inline).
            XCTAssertEqual(lifetime.count, 1)
            subscription.dispose()
            subject.send(2)
            XCTAssertEqual(sum.value, 2)
        }
    #endif

    /// The children's enum is 17 bytes (16 of payload — a closure, a disposable existential, the overflow
    /// buffer or the disposer's thread ID and a flag — and the tag): with the two one-byte fields in its
    /// padding and the 4-byte lock, the object is 40 bytes.
    func testTheChildrenTakeSeventeenBytes() {
        XCTAssertEqual(MemoryLayout<any Disposable>.size, 16, "a class-bound existential: reference and witness table")
        XCTAssertEqual(MemoryLayout<CompositeDisposable.Children>.size, 17)
        XCTAssertEqual(MemoryLayout<CompositeDisposable.Children>.alignment, 8)
    }

    /// A composite whose children were all removed has nothing to dispose, and a second `dispose()` must not
    /// wait for a disposer.
    func testASecondDisposeReturnsWhenEveryChildHadBeenRemoved() {
        let composite = CompositeDisposable()
        let keys = (0..<3).compactMap { _ in composite.add { XCTFail("a removed child was disposed") } }
        XCTAssertEqual(keys.count, 3)
        for key in keys { composite.remove(key) }
        composite.dispose()
        // On another thread, under a watchdog: with that bug, the second dispose() parks for good.
        let returned = startThread { composite.dispose() }
        waitOrFail(returned, "a second dispose() of a composite with nothing to dispose")
        XCTAssertTrue(composite.isDisposed)
    }

    func testChildrenAreDisposedInTheOrderTheyWereAddedWhateverTheirKind() {
        let order = Mutex<[String]>([])
        let composite = CompositeDisposable()
        let inner = CompositeDisposable()
        inner.add { order.withLock { $0.append("inner composite") } }
        composite.add(inner)
        composite.add { order.withLock { $0.append("closure") } }
        composite.add(AnyDisposable { order.withLock { $0.append("disposable") } })
        composite.dispose()
        XCTAssertEqual(order.withLock { $0 }, ["inner composite", "closure", "disposable"])
        XCTAssertTrue(inner.isDisposed)
    }

    func testAFirstChildRemovedByItsKeyIsNotDisposed() throws {
        let composite = CompositeDisposable()
        let inner = CompositeDisposable()
        let key = try XCTUnwrap(composite.add(inner))
        let closureRuns = Counter()
        let closureKey = try XCTUnwrap(composite.add { closureRuns.increment() })
        XCTAssertEqual(composite.count, 2)
        composite.remove(key)
        XCTAssertEqual(composite.count, 1)
        composite.dispose()
        XCTAssertFalse(inner.isDisposed, "a removed child is not disposed")
        XCTAssertEqual(closureRuns.value, 1)
        composite.remove(closureKey)  // after disposal: nothing to remove, no effect
        XCTAssertEqual(composite.count, 0)
    }

    func testAFirstClosureRemovedByItsKeyIsNotRun() throws {
        let composite = CompositeDisposable()
        let runs = Counter()
        let first = try XCTUnwrap(composite.add { runs.increment(by: 100) })
        composite.add { runs.increment() }
        composite.remove(first)
        composite.dispose()
        XCTAssertEqual(runs.value, 1)
    }

    func testAddingACompositeToADisposedCompositeDisposesItAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let inner = CompositeDisposable()
        XCTAssertNil(composite.add(inner))
        XCTAssertTrue(inner.isDisposed)
    }
}
