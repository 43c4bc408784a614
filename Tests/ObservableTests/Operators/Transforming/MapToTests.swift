import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// `map(to:)`, after RACSignalSpec's `-mapReplace:`.
final class MapToTests: ResourceCheckedTestCase {
    func testMapToAlwaysSendsTheGivenValue() {
        let log = EventLog<String, TestError>()
        Signal<Int, TestError>(values: [1, 2, 3]).map(to: "x").record(into: log)
        XCTAssertEqual(log.events, [.next("x"), .next("x"), .next("x"), .completed])
    }

    func testMapToPassesAlongErrors() {
        let log = EventLog<String, TestError>()
        Signal<Int, TestError>(error: TestError(2)).map(to: "x").record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(2))])
    }

    func testMapWithATrailingClosureStillTransforms() {
        let log = EventLog<Int, Never>()
        Signal(values: [1, 2]).map { $0 * 10 }.record(into: log)
        XCTAssertEqual(log.values, [10, 20])
    }
}
