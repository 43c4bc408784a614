import Observable
import Testing

/// Expects `recorder`'s marble string to be `expected` (Swift Testing); on a mismatch, records an issue at
/// the caller's line that shows both diagrams aligned, with a caret under the first differing frame.
///
/// Spaces in `expected` are ignored (they align it with the input diagrams), and so are trailing `-`: a
/// recording ends at its last event. Values are rendered by their description, as
/// `TestRecorder.marbles` does — use one-character values, or pass `symbol:` or `values:`.
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import Testing
/// import TetherTesting
///
/// @Test func uppercasesEachLetter() throws {
///     let scheduler = TestScheduler()
///     let letters = try scheduler.hot("-a-b--c|")
///     let upper = letters.map { $0.uppercased() }.record(on: scheduler)
///     scheduler.run()
///     expectMarbles(upper, "-A-B--C|")
/// }
/// ```
///
/// A failure reads:
///
/// ```text
/// marbles differ at frame 5:
///   expected: -A-B--C|
///   actual:   -A-B-C|
///                  ^
/// ```
///
/// - Returns: whether the diagrams match (so a test can stop early: `guard expectMarbles(…) else { return }`).
@discardableResult
public func expectMarbles<Value, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectMarbles(actual: recorder.marbles, expected, comment, sourceLocation)
}

/// Expects `recorder`'s values, each written as `symbol(value)`, to draw `expected` (Swift Testing).
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import Testing
/// import TetherTesting
///
/// @Test func signInEnablesOnceTheNameIsFilledIn() throws {
///     let scheduler = TestScheduler()
///     let name = try scheduler.hot("a-b", values: ["a": "", "b": "ann"])
///     let enabled = name.map { !$0.isEmpty }.record(on: scheduler)
///     scheduler.run()
///     expectMarbles(enabled, "f-t", symbol: { $0 ? "t" : "f" })
/// }
/// ```
@discardableResult
public func expectMarbles<Value, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    symbol: (Value) -> String,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectMarbles(actual: recorder.marbles(symbol), expected, comment, sourceLocation)
}

/// Expects `recorder`'s values, each written as its key in `values` (the dictionary that built the
/// input), to draw `expected` (Swift Testing).
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import Testing
/// import TetherTesting
///
/// @Test func doublesEachNumber() throws {
///     let scheduler = TestScheduler()
///     let numbers = try scheduler.hot("-a-b|", values: ["a": 1, "b": 2])
///     let doubled = numbers.map { $0 * 2 }.record(on: scheduler)
///     scheduler.run()
///     expectMarbles(doubled, "-b-d|", values: ["b": 2, "d": 4])
/// }
/// ```
@discardableResult
public func expectMarbles<Value: Equatable, Failure: Error>(
    _ recorder: TestRecorder<Value, Failure>,
    _ expected: String,
    values: [Character: Value],
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectMarbles(actual: recorder.marbles(values: values), expected, comment, sourceLocation)
}

private func expectMarbles(
    actual: String, _ expected: String, _ comment: Comment?, _ sourceLocation: SourceLocation
) -> Bool {
    let comparison = MarbleComparison(expected: expected, actual: actual)
    guard let message = comparison.failureMessage(comment?.rawValue) else { return true }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return false
}
