import TetherTestSupport
import XCTest

// `@testable` for the internal operator scaffold.
@testable import Observable

/// `OperatorOutput`, the downstream end every operator ends its subscription through, and
/// `InputCount`, the count of finished inputs every multi-input operator keeps.
final class OperatorOutputTests: XCTestCase {
    private final class Received {
        var events: [String] = []
    }

    private func makeOutput() -> (OperatorOutput<Int, TestError>, Received, CompositeDisposable) {
        let received = Received()
        let lifetime = CompositeDisposable()
        let sink = Sink<Int, TestError> { event in
            switch event {
            case .next(let value): received.events.append("\(value)")
            case .error: received.events.append("error")
            case .completed: received.events.append("completed")
            }
        }
        return (OperatorOutput(sink, lifetime), received, lifetime)
    }

    func testFinishSendsTheTerminalEventOnceThenDisposesTheLifetime() {
        let (output, received, lifetime) = makeOutput()
        output.send(1)
        XCTAssertFalse(output.isFinished)
        output.finish(.completed)
        output.finish(.error(TestError()))
        XCTAssertEqual(received.events, ["1", "completed"])
        XCTAssertTrue(lifetime.isDisposed)
        XCTAssertTrue(output.isFinished)
    }

    func testFinishAfterDisposalSendsNothing() {
        let (output, received, lifetime) = makeOutput()
        lifetime.dispose()
        output.finish(.error(TestError()))
        XCTAssertEqual(received.events, [])
    }

    func testForwardPassesValuesAndEndsOnATerminalEvent() {
        let (output, received, lifetime) = makeOutput()
        output.forward(.next(1))
        XCTAssertFalse(lifetime.isDisposed)
        output.forward(.error(TestError()))
        output.forward(.completed)
        XCTAssertEqual(received.events, ["1", "error"])
        XCTAssertTrue(lifetime.isDisposed)
    }

    func testFinishAfterAValueDoesNotCompleteWhenTheValueEndedTheSubscription() {
        let lifetime = CompositeDisposable()
        var events: [String] = []
        // A downstream `take(1)`: the value disposes the lifetime.
        let sink = Sink<Int, Never> { event in
            events.append("\(event)")
            if case .next = event { lifetime.dispose() }
        }
        OperatorOutput(sink, lifetime).finish(after: 7)
        XCTAssertEqual(events.count, 1)
        XCTAssertTrue(lifetime.isDisposed)
    }

    func testEndDisposesTheLifetimeWithoutATerminalEvent() {
        let (output, received, lifetime) = makeOutput()
        output.end()
        XCTAssertEqual(received.events, [])
        XCTAssertTrue(lifetime.isDisposed)
    }

    func testInputCountReportsOnlyTheLastFinishedInput() {
        var count = InputCount(3)
        XCTAssertFalse(count.finishOne())
        XCTAssertFalse(count.finishOne())
        XCTAssertTrue(count.finishOne())
    }
}
