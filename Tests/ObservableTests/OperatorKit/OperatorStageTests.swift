import TetherTestSupport
import XCTest

// `@testable` for the internal operator scaffold.
@testable import Observable

/// `Signal.startAsStage(in:_:)`, how the sequential operators (`concat`, `then`, `catch`, `retry`,
/// `repeat`) run one stage at a time.
final class OperatorStageTests: XCTestCase {
    func testAStagesTerminalEventEndsOnlyTheStageAndTheNextStageStartsAfterItIsRemoved() {
        let lifetime = CompositeDisposable()
        let stage = Subject<Int, Never>()
        var log: [String] = []
        var stageLifetimeCount = -1
        stage.signal.startAsStage(in: lifetime) { event in
            log.append("\(event)")
            guard case .completed = event else { return nil }
            return { stageLifetimeCount = lifetime.count }
        }
        XCTAssertEqual(lifetime.count, 1, "the stage runs in a child of the lifetime")
        stage.send(1)
        stage.sendCompleted()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(stageLifetimeCount, 0, "the ended stage was removed before the next one starts")
        XCTAssertFalse(lifetime.isDisposed, "a stage's completion does not end the operator")
    }

    func testNothingMovesOnOnceTheSubscriptionWasDisposed() {
        let lifetime = CompositeDisposable()
        let stage = Subject<Int, Never>()
        var movedOn = false
        stage.signal.startAsStage(in: lifetime) { event in
            guard case .completed = event else { return nil }
            lifetime.dispose()  // say, by a downstream operator while the stage completed
            return { movedOn = true }
        }
        stage.send(1)
        stage.sendCompleted()
        XCTAssertFalse(movedOn)
    }

    func testAStageIsNotStartedInADisposedLifetime() {
        let lifetime = CompositeDisposable()
        lifetime.dispose()
        let subscribed = Flag()
        let started = Signal<Int, Never> { _ in
            subscribed.raise()
            return nil
        }.startAsStage(in: lifetime) { _ in nil }
        XCTAssertFalse(started)
        XCTAssertFalse(subscribed.isRaised)
    }
}
