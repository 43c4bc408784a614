import Observable
import TetherTestSupport
import XCTest

/// `Signal.combineLatest(…, reduce:)`, RAC's `+combineLatest:reduce:` with two to six inputs.
final class CombineLatestReduceTests: XCTestCase {
    func testTheLoginFormEnablesSignInOnceBothFieldsAreValid() {
        let username = Subject<String, Never>()
        let password = Subject<String, Never>()
        let log = EventLog<Bool, Never>()
        Signal.combineLatest(username, password) { user, pass in user.count > 3 && pass.count > 3 }
            .record(into: log)
        username.send("josh")
        XCTAssertEqual(log.count, 0, "nothing until every input has sent")
        password.send("abc")
        password.send("abcd")
        username.send("jo")
        XCTAssertEqual(log.values, [false, true, false])
    }

    func testThreeInputsReduceTheirLatestValuesAndCompleteWhenAllHave() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let c = Subject<String, Never>()
        let log = EventLog<String, Never>()
        Signal.combineLatest(a, b, c) { x, y, z in "\(z)\(x + y)" }.record(into: log)
        a.send(1)
        b.send(2)
        c.send("=")
        a.send(10)
        a.sendCompleted()
        b.sendCompleted()
        XCTAssertFalse(log.events.contains { $0.isTerminal })
        c.sendCompleted()
        XCTAssertEqual(log.values, ["=3", "=12"])
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testSixInputsReduceAndAnyErrorFailsTheResult() {
        let inputs = (0..<6).map { _ in Subject<Int, TestError>() }
        let log = EventLog<Int, TestError>()
        Signal.combineLatest(inputs[0], inputs[1], inputs[2], inputs[3], inputs[4], inputs[5]) {
            $0 + $1 + $2 + $3 + $4 + $5
        }.record(into: log)
        for (index, input) in inputs.enumerated() { input.send(index + 1) }
        inputs[3].send(100)
        inputs[5].sendError(TestError(8))
        inputs[0].send(1_000)
        XCTAssertEqual(log.values, [21, 117])
        XCTAssertEqual(log.events.last?.error, TestError(8))
    }

    func testFourAndFiveInputsReduceWithTheLabelledForm() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let c = Subject<Int, Never>()
        let d = Subject<Int, Never>()
        let e = Subject<Int, Never>()
        let four = EventLog<Int, Never>()
        let five = EventLog<Int, Never>()
        Signal.combineLatest(a, b, c, d, reduce: { $0 * $1 * $2 * $3 }).record(into: four)
        Signal.combineLatest(a, b, c, d, e, reduce: { $0 + $1 + $2 + $3 + $4 }).record(into: five)
        for (value, input) in zip(1..., [a, b, c, d, e]) { input.send(value) }
        XCTAssertEqual(four.values, [24])
        XCTAssertEqual(five.values, [15])
    }
}
