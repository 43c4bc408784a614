import XCTest

// `@testable` for the two-input operators' internal logic types.
@testable import Observable

/// The two-input operators' logic, driven directly with inputs (no signal, no mailbox): what it sends
/// and when it ends the subscription. Failures and inputs going away are the scaffold's (see
/// `CombiningTests`, `ZipTests`).
final class TwoInputLogicTests: XCTestCase {
    /// Drives `logic` with `inputs`; returns what it sent, as text, and whether it ended the lifetime.
    private func drive<Logic: TwoInputLogic>(
        _ logic: Logic, _ inputs: [BinaryInput<Logic.First, Logic.Second, Logic.Failure>]
    ) -> (sent: [String], ended: Bool) {
        var sent: [String] = []
        let lifetime = CompositeDisposable()
        let sink = Sink<Logic.Output, Logic.Failure> { event in
            switch event {
            case .next(let value): sent.append("\(value)")
            case .error: sent.append("error")
            case .completed: sent.append("completed")
            }
        }
        for input in inputs where !lifetime.isDisposed {
            logic.receive(input, output: OperatorOutput(sink, lifetime))
        }
        return (sent, lifetime.isDisposed)
    }

    func testCombineLatestSendsOncePerValueAfterBothSidesHaveOneAndCompletesWhenBothHave() {
        let result = drive(
            CombineLatestPair<Int, String, Never>(),
            [
                .first(.next(1)), .first(.next(2)), .second(.next("a")), .first(.next(3)), .first(.completed),
                .second(.next("b")), .second(.completed),
            ])
        XCTAssertEqual(result.sent, ["(2, \"a\")", "(3, \"a\")", "(3, \"b\")", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testCombineLatestKeepsRunningWhileOneSideHasNotCompleted() {
        let result = drive(CombineLatestPair<Int, Int, Never>(), [.first(.next(1)), .first(.completed)])
        XCTAssertEqual(result.sent, [])
        XCTAssertFalse(result.ended)
    }

    func testZipPairsByPositionAndCompletesWhenACompletedSideIsUsedUp() {
        let result = drive(
            ZipPair<Int, String, Never>(),
            [
                .first(.next(1)), .first(.next(2)), .first(.completed), .second(.next("a")), .second(.next("b")),
                .second(.next("c")),
            ])
        XCTAssertEqual(result.sent, ["(1, \"a\")", "(2, \"b\")", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testWithLatestFromSendsOnlyForTheReceiverAndEndsWithIt() {
        let result = drive(
            WithLatestFrom<Int, String, Never>(),
            [
                .first(.next(0)), .second(.next("a")), .first(.next(1)), .second(.completed), .first(.next(2)),
                .first(.completed),
            ])
        XCTAssertEqual(result.sent, ["(1, \"a\")", "(2, \"a\")", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testSampleSendsTheLatestValueForEachTriggerAndEndsWhenEitherCompletes() {
        let result = drive(
            SampleOn<Int, Void, Never>(),
            [
                .second(.next(())), .first(.next(1)), .first(.next(2)), .second(.next(())), .second(.next(())),
                .second(.completed), .first(.next(3)),
            ])
        XCTAssertEqual(result.sent, ["2", "2", "completed"])
        XCTAssertTrue(result.ended)
    }
}
