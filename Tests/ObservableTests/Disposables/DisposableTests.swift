import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class DisposableTests: ResourceCheckedTestCase {
    func testAnyDisposableRunsActionExactlyOnceUnderConcurrency() {
        let runs = Counter()
        let disposable = AnyDisposable { runs.increment() }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in disposable.dispose() }
        XCTAssertEqual(runs.value, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testAnyDisposableReleasesActionAfterDisposing() {
        weak var weakTracked: Tracked?
        let disposable: AnyDisposable
        do {
            let tracked = Tracked()
            weakTracked = tracked
            disposable = AnyDisposable { _ = tracked }
        }
        XCTAssertNotNil(weakTracked)
        disposable.dispose()
        XCTAssertNil(weakTracked)
    }

    func testCompositeDisposesAllChildren() {
        let runs = Counter()
        let composite = CompositeDisposable([AnyDisposable { runs.increment() }, AnyDisposable { runs.increment() }])
        composite.add { runs.increment() }
        XCTAssertEqual(composite.count, 3)
        composite.dispose()
        XCTAssertEqual(runs.value, 3)
        XCTAssertEqual(composite.count, 0)
    }

    func testCompositeDisposesAdditionsAfterItWasDisposed() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = AnyDisposable()
        XCTAssertNil(composite.add(late))
        XCTAssertTrue(late.isDisposed)
    }

    func testCompositeDropsRemovedChildWithoutDisposingIt() {
        let composite = CompositeDisposable()
        let child = AnyDisposable()
        let other = AnyDisposable()
        let key = composite.add(child)!
        composite.add(other)
        composite.remove(key)
        XCTAssertEqual(composite.count, 1)
        composite.dispose()
        XCTAssertFalse(child.isDisposed)
        XCTAssertTrue(other.isDisposed)
    }

    func testCompositeDoesNotKeepRemovedChildrenAlive() {
        let composite = CompositeDisposable()
        weak var weakChild: AnyDisposable?
        do {
            let child = AnyDisposable()
            weakChild = child
            let key = composite.add(child)!
            composite.remove(key)
        }
        XCTAssertNil(weakChild)
    }

    func testSerialDisposableDisposesPreviousInnerWhenReplaced() {
        let serial = SerialDisposable()
        let first = AnyDisposable()
        let second = AnyDisposable()
        serial.inner = first
        serial.inner = second
        XCTAssertTrue(first.isDisposed)
        XCTAssertFalse(second.isDisposed)
        serial.dispose()
        XCTAssertTrue(second.isDisposed)
        let third = AnyDisposable()
        serial.inner = third
        XCTAssertTrue(third.isDisposed)
    }

    func testScopedDisposableDisposesOnDeinit() {
        let inner = AnyDisposable()
        do {
            _ = ScopedDisposable(inner)
        }
        XCTAssertTrue(inner.isDisposed)
    }

    func testDisposedByAddsToComposite() {
        let composite = CompositeDisposable()
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        subject.record(into: log).disposed(by: composite)
        composite.dispose()
        subject.send(1)
        XCTAssertEqual(log.values, [])
    }
}
