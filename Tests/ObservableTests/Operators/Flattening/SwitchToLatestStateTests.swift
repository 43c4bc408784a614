import XCTest

@testable import Observable

/// `SwitchToLatestState` (`switchToLatest`, `flatMapLatest`) driven directly: inners and
/// subscriptions are plain strings.
final class SwitchToLatestStateTests: XCTestCase {
    typealias State = SwitchToLatestState<String, String>

    /// Subscribes `inner` the way the driver does after a `.subscribe` action; returns its id.
    func start(_ state: inout State, _ inner: String, replacing previous: String? = nil) -> UInt64 {
        XCTAssertEqual(state.outerSent(inner), .subscribe(inner, replacing: previous))
        let id = state.willSubscribe("subscription \(inner)")
        XCTAssertEqual(state.didSubscribe(), .none)
        return id
    }

    func testSwitchToLatestDisposesTheCurrentInnerWhenANewOneArrives() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.subscription(of: a), "subscription a")
        let b = start(&state, "b", replacing: "subscription a")
        XCTAssertNil(state.subscription(of: a))
        XCTAssertEqual(state.subscription(of: b), "subscription b")
    }

    func testSwitchToLatestForwardsOnlyTheLatestInnersValues() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertTrue(state.forwardsValue(from: a))
        let b = start(&state, "b", replacing: "subscription a")
        XCTAssertFalse(state.forwardsValue(from: a))
        XCTAssertTrue(state.forwardsValue(from: b))
    }

    func testSwitchToLatestIgnoresTheTerminalEventsOfAReplacedInner() {
        var state = State()
        let a = start(&state, "a")
        let b = start(&state, "b", replacing: "subscription a")
        XCTAssertEqual(state.innerFailed(a), .none)
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertEqual(state.outerCompleted(), .none)
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(state.innerCompleted(b), .complete)
    }

    func testSwitchToLatestCompletesWhenTheOuterCompletesAfterTheCurrentInnerCompleted() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.innerCompleted(a), .none)
        XCTAssertEqual(state.outerCompleted(), .complete)
        XCTAssertTrue(state.isFinished)
    }

    func testSwitchToLatestFailsOnAnErrorFromTheCurrentInnerOrTheOuter() {
        var inner = State()
        let a = start(&inner, "a")
        XCTAssertEqual(inner.innerFailed(a), .fail)
        XCTAssertFalse(inner.forwardsValue(from: a))
        XCTAssertEqual(inner.outerSent("b"), .none)
        XCTAssertEqual(inner.innerCompleted(a), .none)
        XCTAssertEqual(inner.disposed(), ["subscription a"])

        var outer = State()
        _ = start(&outer, "a")
        XCTAssertEqual(outer.outerFailed(), .fail)
        XCTAssertEqual(outer.outerFailed(), .none)
    }

    func testSwitchToLatestEndsQuietlyWhenTheCurrentInnerWentAwayWithoutATerminalEvent() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertEqual(state.outerCompleted(), .endQuietly)
    }

    func testSwitchToLatestCompletesNormallyWhenANewInnerReplacedOneThatWentAway() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.innerWentAway(a), .none)
        let b = start(&state, "b")
        XCTAssertEqual(state.innerCompleted(b), .none)
        XCTAssertEqual(state.outerCompleted(), .complete)
    }

    func testSwitchToLatestEndsQuietlyWhenTheOuterWentAwayWithoutCompleting() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertEqual(state.outerWentAway(), .none)
        XCTAssertEqual(state.innerCompleted(a), .endQuietly)
    }

    func testSwitchToLatestHandsBackTheCurrentSubscriptionWhenDisposed() {
        var state = State()
        _ = start(&state, "a")
        _ = start(&state, "b", replacing: "subscription a")
        XCTAssertEqual(state.disposed(), ["subscription b"])
        XCTAssertEqual(state.disposed(), [])
    }

    func testSwitchToLatestInnerIsLiveUntilReplacedOrEndedAndThenItsGoingAwayIsNoNews() {
        var state = State()
        let a = start(&state, "a")
        XCTAssertTrue(state.isLive(a))
        let b = start(&state, "b", replacing: "subscription a")
        XCTAssertFalse(state.isLive(a), "replaced")
        XCTAssertTrue(state.isLive(b))
        XCTAssertEqual(state.innerCompleted(b), .none)
        XCTAssertFalse(state.isLive(b), "completed")
        // What the driver skips for an inner that is not live must be a no-op.
        XCTAssertEqual(state.innerWentAway(a), .none)
        XCTAssertEqual(state.innerWentAway(b), .none)
        XCTAssertEqual(state.outerCompleted(), .complete, "not ended quietly: nothing went away while live")
    }

    /// `outerSending()`, the driver's way for an inner it starts from the outer event as it is (no copy),
    /// changes the state as `outerSent(_:)` does: the current inner is replaced, and nothing is started once
    /// the result has ended.
    func testOuterSendingReplacesTheCurrentInnerAsOuterSentDoes() {
        var state = State()
        XCTAssertEqual(state.outerSending(), .subscribe(replacing: nil))
        let a = state.willSubscribe("subscription a")
        XCTAssertEqual(state.didSubscribe(), .none)
        XCTAssertEqual(state.outerSending(), .subscribe(replacing: "subscription a"))
        XCTAssertFalse(state.isLive(a), "replaced")
        let b = state.willSubscribe("subscription b")
        XCTAssertFalse(state.forwardsValue(from: a))
        XCTAssertTrue(state.forwardsValue(from: b))
        XCTAssertEqual(state.innerFailed(b), .fail)
        XCTAssertEqual(state.outerSending(), .ignore, "the result has ended")
        XCTAssertEqual(state.outerSent("c"), .none, "as outerSent(_:) would")
    }
}
