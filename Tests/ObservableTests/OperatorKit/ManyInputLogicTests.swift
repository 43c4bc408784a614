import XCTest

// `@testable` for the many-input operators' internal logic types.
@testable import Observable

/// The logic of the operators over a collection of inputs (`merge`, `combineLatest([…])`, `zip([…])`),
/// driven directly with indexed events (no signal, no mailbox): what it sends and when it ends the
/// subscription. Failures and inputs going away are the scaffold's (see `CombiningTests`, `ZipTests`).
final class ManyInputLogicTests: XCTestCase {
    /// Drives `logic` with `inputs`; returns what it sent, as text, and whether it ended the lifetime.
    private func drive<Logic: ManyInputLogic>(
        _ logic: Logic, _ inputs: [(Int, Event<Logic.Input, Logic.Failure>)]
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
        for (index, event) in inputs where !lifetime.isDisposed {
            logic.receive(index, event, output: OperatorOutput(sink, lifetime))
        }
        return (sent, lifetime.isDisposed)
    }

    func testMergeSendsEveryValueAndCompletesOnlyWhenTheLastInputCompletes() {
        let result = drive(
            MergeMany<Int, Never>(count: 3),
            [(0, .next(1)), (1, .completed), (2, .next(2)), (0, .completed), (2, .next(3)), (2, .completed)])
        XCTAssertEqual(result.sent, ["1", "2", "3", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testMergeKeepsRunningWhileOneInputHasNotCompleted() {
        let result = drive(MergeMany<Int, Never>(count: 2), [(0, .completed), (1, .next(1))])
        XCTAssertEqual(result.sent, ["1"])
        XCTAssertFalse(result.ended)
    }

    func testCombineLatestSendsOnceEveryInputHasAValueAndCompletesWhenAllHaveCompleted() {
        let result = drive(
            CombineLatestMany<Int, Never>(count: 3),
            [
                (0, .next(1)), (1, .next(10)), (0, .next(2)), (2, .next(100)), (1, .next(20)), (0, .completed),
                (1, .completed), (2, .next(200)), (2, .completed),
            ])
        XCTAssertEqual(
            result.sent, ["[2, 10, 100]", "[2, 20, 100]", "[2, 20, 200]", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testCombineLatestKeepsRunningWhenOnlySomeInputsCompleted() {
        let result = drive(CombineLatestMany<Int, Never>(count: 2), [(0, .next(1)), (0, .completed)])
        XCTAssertEqual(result.sent, [])
        XCTAssertFalse(result.ended)
    }

    func testZipSendsByPositionAndCompletesWhenACompletedInputIsUsedUp() {
        let result = drive(
            ZipMany<Int, Never>(count: 3),
            [
                (0, .next(1)), (0, .next(2)), (1, .next(10)), (0, .completed), (2, .next(100)), (1, .next(20)),
                (2, .next(200)), (1, .next(30)),
            ])
        XCTAssertEqual(result.sent, ["[1, 10, 100]", "[2, 20, 200]", "completed"])
        XCTAssertTrue(result.ended)
    }

    func testZipKeepsRunningWhileACompletedInputStillHasValuesToPair() {
        let result = drive(ZipMany<Int, Never>(count: 2), [(0, .next(1)), (0, .completed)])
        XCTAssertEqual(result.sent, [])
        XCTAssertFalse(result.ended)
    }
}
