import Observable
import XCTest

/// Asserts that `recorder`'s marble string is `expected` (XCTest); on a mismatch, fails at the caller's
/// line with both diagrams aligned and a caret under the first differing frame.
///
/// The XCTest twin of ``expectMarbles(_:_:_:sourceLocation:)``, with the same rules: spaces and
/// trailing `-` in `expected` are ignored.
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import TetherTesting
/// import XCTest
///
/// nonisolated final class UppercaseTests: XCTestCase {
///     func testUppercasesEachLetter() throws {
///         let scheduler = TestScheduler()
///         let letters = try scheduler.hot("-a-b--c|")
///         let upper = letters.map { $0.uppercased() }.record(on: scheduler)
///         scheduler.run()
///         assertMarbles(upper, "-A-B--C|")
///     }
/// }
/// ```
@discardableResult
public func assertMarbles<Value, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) -> Bool {
    assertMarbles(actual: recorder.marbles, expected, message(), file, line)
}

/// Asserts that `recorder`'s values, each written as `symbol(value)`, draw `expected` (XCTest).
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import TetherTesting
/// import XCTest
///
/// nonisolated final class EnabledTests: XCTestCase {
///     func testDisabledWhileTheNameIsEmpty() throws {
///         let scheduler = TestScheduler()
///         let name = try scheduler.hot("a-b", values: ["a": "", "b": "ann"])
///         let enabled = name.map { !$0.isEmpty }.record(on: scheduler)
///         scheduler.run()
///         assertMarbles(enabled, "f-t", symbol: { $0 ? "t" : "f" })
///     }
/// }
/// ```
@discardableResult
public func assertMarbles<Value, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    symbol: (Value) -> String,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) -> Bool {
    assertMarbles(actual: recorder.marbles(symbol), expected, message(), file, line)
}

/// Asserts that `recorder`'s values, each written as its key in `values`, draw `expected` (XCTest).
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import TetherTesting
/// import XCTest
///
/// nonisolated final class DoublingTests: XCTestCase {
///     func testDoublesEachNumber() throws {
///         let scheduler = TestScheduler()
///         let numbers = try scheduler.hot("-a-b|", values: ["a": 1, "b": 2])
///         let doubled = numbers.map { $0 * 2 }.record(on: scheduler)
///         scheduler.run()
///         assertMarbles(doubled, "-b-d|", values: ["b": 2, "d": 4])
///     }
/// }
/// ```
@discardableResult
public func assertMarbles<Value: Equatable, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    values: [Character: Value],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) -> Bool {
    assertMarbles(actual: recorder.marbles(values: values), expected, message(), file, line)
}

private func assertMarbles(
    actual: String, _ expected: String, _ message: String, _ file: StaticString, _ line: UInt
) -> Bool {
    let comparison = MarbleComparison(expected: expected, actual: actual)
    guard let failure = comparison.failureMessage(message.isEmpty ? nil : message) else { return true }
    XCTFail(failure, file: file, line: line)
    return false
}
