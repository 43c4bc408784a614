import XCTest

@testable import Observable

/// `ConcatState` (`concat`, `concatMap`) driven directly: inners and subscriptions are plain strings.
final class ConcatStateTests: XCTestCase {
    typealias State = ConcatState<String, String>

    /// Does what the driver does after a `.subscribe(inner)` action, with `duringStart` standing for
    /// the events the inner sends while it is being started; returns the id and what `didSubscribe`
    /// decided.
    func subscribe(
        _ state: inout State, _ inner: String, duringStart: (inout State, UInt64) -> Void = { _, _ in }
    ) -> (id: UInt64, next: FlattenAction<String, String>) {
        let id = state.willSubscribe("subscription \(inner)")
        duringStart(&state, id)
        return (id, state.didSubscribe())
    }

    func testConcatStartsTheNextInnerOnlyWhenTheCurrentOneCompletes() {
        var state = State()
        XCTAssertEqual(state.outerSent("a"), .subscribe("a", replacing: nil))
        let a = subscribe(&state, "a")
        XCTAssertEqual(a.next, .none)
        XCTAssertEqual(state.outerSent("b"), .none)
        XCTAssertEqual(state.outerSent("c"), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .subscribe("b", replacing: nil))
        let b = subscribe(&state, "b")
        XCTAssertEqual(b.next, .none)
        XCTAssertEqual(state.innerCompleted(b.id), .subscribe("c", replacing: nil))
    }

    func testConcatForwardsOnlyTheCurrentInnersValues() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        XCTAssertTrue(state.forwardsValue(from: a.id))
        XCTAssertEqual(state.innerCompleted(a.id), .none)
        XCTAssertFalse(state.forwardsValue(from: a.id))
        XCTAssertEqual(state.innerFailed(a.id), .none)
    }

    func testConcatStartsTheNextInnerAfterTheStartOfOneThatCompletedSynchronously() {
        var state = State()
        _ = state.outerSent("a")
        _ = state.outerSent("b")
        XCTAssertTrue(state.isSubscribing)
        let a = subscribe(&state, "a") { state, id in
            // Completing inside its own start does not start `b` from there (no recursion).
            XCTAssertEqual(state.innerCompleted(id), .none)
        }
        XCTAssertEqual(a.next, .subscribe("b", replacing: nil))
    }

    func testConcatCompletesWhenTheOuterAndEveryQueuedInnerHaveCompleted() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        _ = state.outerSent("b")
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .subscribe("b", replacing: nil))
        let b = subscribe(&state, "b")
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(state.innerCompleted(b.id), .complete)
        XCTAssertTrue(state.isFinished)
    }

    func testConcatCompletesInsideTheStartOfTheLastInnerWhenItCompletesSynchronously() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        XCTAssertEqual(state.outerSent("b"), .none)
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .subscribe("b", replacing: nil))
        let b = subscribe(&state, "b") { state, id in
            XCTAssertEqual(state.innerCompleted(id), .complete)
        }
        XCTAssertEqual(b.next, .none)
    }

    func testConcatCompletesAtOnceWhenTheOuterCompletesWithNothingQueued() {
        var state = State()
        XCTAssertEqual(state.outerCompleted(), .complete)
    }

    func testConcatEndsQuietlyAtOnceWhenTheCurrentInnerWentAwayWithInnersQueued() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        _ = state.outerSent("b")
        XCTAssertEqual(state.innerWentAway(a.id), .endQuietly)
        XCTAssertEqual(state.innerCompleted(a.id), .none)
        XCTAssertEqual(state.disposed(), [])
    }

    func testConcatEndsQuietlyWhenTheOuterWentAwayWithoutCompleting() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        XCTAssertEqual(state.outerWentAway(), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .endQuietly)
    }

    func testConcatNeverStartsTheQueuedInnersAfterAFailure() {
        var state = State()
        _ = state.outerSent("a")
        let a = subscribe(&state, "a")
        _ = state.outerSent("b")
        XCTAssertEqual(state.innerFailed(a.id), .fail)
        XCTAssertEqual(state.innerCompleted(a.id), .none)
        XCTAssertEqual(state.outerSent("c"), .none)
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.disposed(), ["subscription a"])
        XCTAssertFalse(state.hasQueued)
    }

    func testConcatStartsManyQueuedInnersInArrivalOrder() {
        var state = State()
        var started: [String] = []
        var action = state.outerSent("0")
        for index in 1..<100 { XCTAssertEqual(state.outerSent("\(index)"), .none) }
        XCTAssertEqual(state.outerCompleted(), .none)
        while case .subscribe(let inner, _) = action {
            started.append(inner)
            let current = subscribe(&state, inner)
            XCTAssertEqual(current.next, .none)
            action = state.innerCompleted(current.id)
        }
        XCTAssertEqual(action, .complete)
        XCTAssertEqual(started, (0..<100).map { "\($0)" })
    }

    func testConcatHandsBackTheCurrentSubscriptionWhenDisposed() {
        var state = State()
        _ = state.outerSent("a")
        _ = subscribe(&state, "a")
        _ = state.outerSent("b")
        XCTAssertEqual(state.disposed(), ["subscription a"])
        XCTAssertFalse(state.hasQueued)
        XCTAssertEqual(state.disposed(), [])
    }

    func testConcatInnerIsLiveUntilItCompletesAndThenItsGoingAwayIsNoNews() {
        var state = State()
        XCTAssertEqual(state.outerSent("a"), .subscribe("a", replacing: nil))
        let a = subscribe(&state, "a")
        XCTAssertTrue(state.isLive(a.id))
        XCTAssertEqual(state.outerSent("b"), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .subscribe("b", replacing: nil))
        XCTAssertFalse(state.isLive(a.id))
        let b = subscribe(&state, "b")
        XCTAssertTrue(state.isLive(b.id))
        // What the driver skips for an inner that is not live must be a no-op.
        XCTAssertEqual(state.innerWentAway(a.id), .none)
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(state.innerCompleted(b.id), .none)
        XCTAssertEqual(state.outerCompleted(), .complete)
    }

    /// Concat queues its inners: `outerSending()` always hands the inner over to `outerSent(_:)`, changing nothing.
    func testOuterSendingHandsEveryInnerOverToTheQueue() {
        var state = State()
        XCTAssertEqual(state.outerSending(), .handOver)
        XCTAssertEqual(state.outerSent("a"), .subscribe("a", replacing: nil))
        let a = subscribe(&state, "a")
        XCTAssertEqual(state.outerSending(), .handOver)
        XCTAssertEqual(state.outerSent("b"), .none)
        XCTAssertEqual(state.innerCompleted(a.id), .subscribe("b", replacing: nil))
    }
}
