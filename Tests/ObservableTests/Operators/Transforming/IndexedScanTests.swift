import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's `-scanWithStart:reduceWithIndex:` (RACSignalSpec "-scanWithStart:reduceWithIndex:").
final class IndexedScanTests: ResourceCheckedTestCase {
    func testShouldScanWithTheIndexOfEachValue() {
        let log = EventLog<[Int], Never>()
        Signal(values: [10, 20, 30])
            .scan([Int](), indexed: { running, value, index in running + [value + index] })
            .record(into: log)
        XCTAssertEqual(log.values, [[10], [10, 21], [10, 21, 32]])
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testIndicesStartAtZeroForEachSubscription() {
        let indices = Signal(values: ["a", "b"]).scan(0, indexed: { _, _, index in index })
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        indices.record(into: first)
        indices.record(into: second)
        XCTAssertEqual(first.values, [0, 1])
        XCTAssertEqual(second.values, [0, 1])
    }

    func testErrorsAreForwarded() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.scan(0, indexed: { running, value, index in running + value * index }).record(into: log)
        subject.send(5)
        subject.send(5)
        subject.sendError(TestError(7))
        XCTAssertEqual(log.values, [0, 5])
        XCTAssertEqual(log.events.last?.error, TestError(7))
    }
}
