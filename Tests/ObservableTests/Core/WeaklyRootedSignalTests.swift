import TetherTestSupport
import TetherTesting
import XCTest

@testable import Observable

/// `Signal.weaklyRooted(at:_:)`, the start of `observe`, `valuesAndChanges` and the `deallocated` signals.
final class WeaklyRootedSignalTests: ResourceCheckedTestCase {
    private final class Root {
        var value = 7
    }

    func testRunsTheStartWithTheRootWhileItIsAlive() {
        let root = Root()
        let signal = Signal<Int, Never>.weaklyRooted(at: root) { root, sink, lifetime in
            sink.send(.next(root.value))
        }
        let log = EventLog<Int, Never>()
        let subscription = signal.record(into: log)
        XCTAssertEqual(log.values, [7])
        XCTAssertFalse(log.isTerminated)
        subscription.dispose()
    }

    func testCompletesAtOnceWithoutTheStartOnceTheRootIsGone() {
        var root: Root? = Root()
        let started = Counter()
        let signal = Signal<Int, Never>.weaklyRooted(at: root!) { _, _, _ in started.increment() }
        root = nil
        let log = EventLog<Int, Never>()
        let subscription = signal.record(into: log)
        XCTAssertEqual(started.value, 0)
        XCTAssertEqual(log.count, 1)
        XCTAssertTrue(log.isTerminated)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testTheSignalDoesNotKeepTheRootAlive() {
        var root: Root? = Root()
        weak let weakRoot = root
        let signal = Signal<Int, Never>.weaklyRooted(at: root!) { _, _, _ in }
        root = nil
        XCTAssertNil(weakRoot)
        withExtendedLifetime(signal) {}
    }
}
