import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `attempt(_:)` and `tryMap(_:)`, after RACSignalSpec's `-try:` and `-tryMap:` cases.
final class AttemptTests: ResourceCheckedTestCase {
    private static func check(_ value: Int) throws(TestError) {
        if value < 0 { throw TestError(value) }
    }

    func testAttemptPassesValuesWhileTheBlockSucceeds() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1, 2, 3]).attempt { value throws(TestError) in try AttemptTests.check(value) }
            .record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testAttemptSendsTheThrownErrorAndStopsAfterIt() {
        let source = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        let calls = Counter()
        source.signal.attempt { value throws(TestError) in
            calls.increment()
            try AttemptTests.check(value)
        }.record(into: log)
        source.send(1)
        source.send(-2)
        source.send(3)
        XCTAssertEqual(log.events, [.next(1), .error(TestError(-2))])
        XCTAssertEqual(calls.value, 2, "not called after the error")
        XCTAssertEqual(source.disposals, 1, "the source is disposed at the error")
    }

    func testAttemptPassesAlongErrors() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(5)).attempt { _ in }.record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(5))])
    }

    func testTryMapMapsValuesWithTheGivenBlock() {
        let log = EventLog<String, TestError>()
        Signal<Int, TestError>(values: [1, 2]).tryMap { value throws(TestError) -> String in
            try AttemptTests.check(value)
            return "v\(value)"
        }.record(into: log)
        XCTAssertEqual(log.events, [.next("v1"), .next("v2"), .completed])
    }

    func testTryMapSendsTheThrownErrorAndDisposesTheSource() {
        let source = ProbeSource<Int, TestError>()
        let log = EventLog<Int, TestError>()
        source.signal.tryMap { value throws(TestError) -> Int in
            if value == 2 { throw TestError(22) }
            return value * 10
        }.record(into: log)
        source.send(1)
        source.send(2)
        source.send(3)
        XCTAssertEqual(log.events, [.next(10), .error(TestError(22))])
        XCTAssertEqual(source.disposals, 1)
    }

    func testTryMapPassesAlongErrorsAndCompletion() {
        let failing = EventLog<Int, TestError>()
        Signal<Int, TestError>(error: TestError(4)).tryMap { $0 }.record(into: failing)
        XCTAssertEqual(failing.events, [.error(TestError(4))])
        let empty = EventLog<Int, TestError>()
        Signal<Int, TestError>.empty.tryMap { $0 }.record(into: empty)
        XCTAssertEqual(empty.events, [.completed])
    }

    func testTryMapOnANeverFailingSignalTakesANonThrowingClosure() {
        let log = EventLog<Int, Never>()
        Signal(values: [1, 2]).tryMap { $0 + 1 }.record(into: log)
        XCTAssertEqual(log.events, [.next(2), .next(3), .completed])
    }
}
