import XCTest

@testable import Observable

/// `MergeState` (`flatMap`, `flatten`) driven directly: inners and subscriptions are plain strings.
final class MergeStateTests: XCTestCase {
    typealias State = MergeState<String, String>

    /// Subscribes `inner` the way the driver does after a `.subscribe` action; returns its id.
    func start(_ state: inout State, _ inner: String) -> UInt64 {
        XCTAssertEqual(state.outerSent(inner), .subscribe(inner, replacing: nil))
        let id = state.willSubscribe("subscription \(inner)")
        XCTAssertEqual(state.didSubscribe(), .none)
        return id
    }

    func testMergeSubscribesEveryInnerAsSoonAsItArrivesAndForwardsThemAll() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b")
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(state.forwardsValue(from: a))
        XCTAssertTrue(state.forwardsValue(from: b))
        XCTAssertEqual(state.subscription(of: a), "subscription a")
        XCTAssertEqual(state.subscription(of: b), "subscription b")
    }

    func testMergeCompletesOnlyWhenTheOuterAndEveryInnerHaveCompleted() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b")
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(state.innerCompleted(b), .complete)
        XCTAssertTrue(state.isFinished)
    }

    func testMergeCompletesAtOnceWhenTheOuterCompletesWithNoLiveInner() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertEqual(state.outerCompleted(), .complete)
    }

    func testMergeFailsOnTheFirstErrorAndIgnoresEverythingAfterIt() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b")
        XCTAssertEqual(state.innerFailed(b), .fail)
        XCTAssertEqual(state.innerFailed(a), .none)
        XCTAssertEqual(state.outerFailed(), .none)
        XCTAssertFalse(state.forwardsValue(from: a))
        XCTAssertEqual(state.outerSent("c"), .none)
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertEqual(state.outerCompleted(), .none)
    }

    func testMergeFailsWhenTheOuterFailsWhileInnersAreLive() {
        var state = State()
        _ = start(&state, "a")
        XCTAssertEqual(state.outerFailed(), .fail)
        XCTAssertTrue(state.isFinished)
    }

    func testMergeEndsQuietlyWhenAnInnerWentAwayWithoutATerminalEvent() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b")
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertNil(state.subscription(of: a))
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.innerCompleted(b), .endQuietly)
    }

    func testMergeEndsQuietlyWhenTheOuterWentAwayWithoutCompleting() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.outerWentAway(), .none)
        XCTAssertEqual(state.innerCompleted(a), .endQuietly)
    }

    func testMergeIgnoresTheOuterGoingAwayAfterItCompleted() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.outerWentAway(), .none)
        XCTAssertEqual(state.innerCompleted(a), .complete)
    }

    func testMergeIgnoresAnInnerGoingAwayAfterItCompleted() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertEqual(state.outerCompleted(), .complete)
    }

    func testMergeHandsBackEveryLiveSubscriptionWhenDisposed() {
        var state = State()
        let a = start(&state, "a")
        _ = start(&state, "b")
        _ = start(&state, "c")
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertEqual(state.disposed().sorted(), ["subscription b", "subscription c"])
        XCTAssertEqual(state.disposed(), [])
    }

    func testMergeInnerIsLiveUntilItEndsAndThenItsGoingAwayIsNoNews() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b")
        XCTAssertTrue(state.isLive(a))
        XCTAssertTrue(state.isLive(b))
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertFalse(state.isLive(a))
        XCTAssertTrue(state.isLive(b))
        // What the driver skips for an inner that is not live must be a no-op.
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertEqual(state.innerCompleted(b), .none)
        XCTAssertEqual(state.outerCompleted(), .complete, "not ended quietly: nothing went away while live")
    }

    /// `outerSending()` (an inner the driver starts from the outer event as it is) subscribes every inner at
    /// once, replacing none, as `outerSent(_:)` does, until the result has ended.
    func testOuterSendingSubscribesEveryInnerAtOnceUntilTheResultEnds() {
        var state = State()
        XCTAssertEqual(state.outerSending(), .subscribe(replacing: nil))
        let a = state.willSubscribe("subscription a")
        XCTAssertEqual(state.outerSending(), .subscribe(replacing: nil))
        let b = state.willSubscribe("subscription b")
        XCTAssertTrue(state.isLive(a))
        XCTAssertTrue(state.isLive(b))
        XCTAssertEqual(state.innerFailed(a), .fail)
        XCTAssertEqual(state.outerSending(), .ignore)
    }
}
