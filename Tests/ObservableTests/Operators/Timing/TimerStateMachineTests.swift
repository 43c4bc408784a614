import Synchronization
import XCTest

// `@testable` for the operators' internal state machines and their timer scaffold.
@testable import Observable

/// The timer-driven operators' state machines, driven directly (no signal, no scheduler), and the
/// scaffold's one re-armable timer.
final class TimerStateMachineTests: XCTestCase {
    // MARK: DebounceState

    func testDebounceSendsOnlyTheLastValueReceivedBeforeTheQuietPeriodEnds() {
        var state = DebounceState<Int>()
        state.receive(1)
        state.receive(2)
        XCTAssertEqual(state.takeWaiting(), 2)
        XCTAssertNil(state.takeWaiting(), "nothing waits once it was sent")
    }

    func testDebounceCompletionSendsTheWaitingValueAndAResetDropsIt() {
        var state = DebounceState<Int>()
        state.receive(1)
        XCTAssertEqual(state.takeWaiting(), 1)
        XCTAssertNil(state.takeWaiting())
        state.receive(2)
        state.reset()
        XCTAssertNil(state.takeWaiting())
    }

    // MARK: ThrottleState

    func testThrottleSendsTheFirstValueAtOnceAndOpensAWindow() {
        var state = ThrottleState<Int>(latest: true)
        XCTAssertEqual(state.receive(1), .send(1))
        XCTAssertEqual(state.receive(2), ThrottleState<Int>.Action.none)
        XCTAssertEqual(state.receive(3), ThrottleState<Int>.Action.none)
        XCTAssertEqual(state.windowEnded(), .send(3), "latest: the last value of the window")
        XCTAssertEqual(state.windowEnded(), ThrottleState<Int>.Action.none, "an empty window closes")
        XCTAssertEqual(state.receive(4), .send(4), "closed: the next value passes at once")
    }

    func testThrottleWithoutLatestKeepsTheFirstValueOfTheWindow() {
        var state = ThrottleState<Int>(latest: false)
        XCTAssertEqual(state.receive(1), .send(1))
        _ = state.receive(2)
        _ = state.receive(3)
        XCTAssertEqual(state.windowEnded(), .send(2))
    }

    func testThrottleCompletionWaitsForTheWindowThatHoldsAValue() {
        var state = ThrottleState<Int>(latest: true)
        _ = state.receive(1)
        _ = state.receive(2)
        XCTAssertEqual(state.complete(), ThrottleState<Int>.Action.none, "the pending value goes first")
        XCTAssertEqual(state.receive(3), ThrottleState<Int>.Action.none, "nothing after the completion")
        XCTAssertEqual(state.windowEnded(), .sendAndComplete(2))
        XCTAssertEqual(state.windowEnded(), ThrottleState<Int>.Action.none)
    }

    func testThrottleCompletesAtOnceWhenNothingIsPendingAndNothingFollowsAFailure() {
        var idle = ThrottleState<Int>(latest: true)
        XCTAssertEqual(idle.complete(), .complete)
        var open = ThrottleState<Int>(latest: true)
        _ = open.receive(1)
        XCTAssertEqual(open.complete(), .complete, "an open window with nothing pending")
        var failed = ThrottleState<Int>(latest: true)
        _ = failed.receive(1)
        _ = failed.receive(2)
        failed.fail()
        XCTAssertEqual(failed.windowEnded(), ThrottleState<Int>.Action.none)
        XCTAssertEqual(failed.receive(3), ThrottleState<Int>.Action.none)
    }

    // MARK: The scaffold's timer

    func testARearmedTimerFiresOnceAtItsOwnDeadline() {
        let scheduler = TestScheduler()
        let fired = Mutex<[UInt64]>([])
        let timer = OperatorTimer(scheduler: scheduler)
        timer.fire = { armed in fired.withLock { $0.append(armed) } }
        timer.arm(after: .seconds(2))
        scheduler.advance(by: .seconds(1))
        timer.arm(after: .seconds(2))  // replaces the first: it never fires
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(fired.withLock { $0 }, [])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(fired.withLock { $0 }, [2], "the second arming, at 3 s")
        timer.arm(after: .seconds(1))
        timer.cancel()
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(fired.withLock { $0 }, [2], "a cancelled timer never fires")
        XCTAssertEqual(timer.generation, 4)
    }

    func testAFiringOfAReplacedTimerNeverReachesTheHandler() {
        // The race the generations exist for: the timer fires on the scheduler's thread (its firing is
        // queued in the mailbox) while the handler, busy with a source value, re-arms it.
        let scheduler = TestScheduler()
        let source = Subject<Int, Never>()
        var inputs: [String] = []
        var timerRef: OperatorTimer<TestScheduler>?
        let signal = Signal<Int, Never>.timerDriven(by: source.signal, on: scheduler) { output, timer in
            timerRef = timer
            return { input in
                switch input {
                case .upstream(.next(let value)):
                    inputs.append("next \(value)")
                    if value == 1 { timer.arm(after: .seconds(1)) }
                    if value == 2 {
                        // Fire the armed timer now (its firing queues behind this input), then re-arm.
                        scheduler.advance(by: .seconds(1))
                        timer.arm(after: .seconds(1))
                    }
                case .upstream: inputs.append("terminal")
                case .timerFired: inputs.append("timer")
                case .sourceGone:
                    inputs.append("gone")
                    output.end()
                }
            }
        }
        let subscription = signal.subscribe(next: { _ in })
        source.send(1)
        source.send(2)
        XCTAssertEqual(inputs, ["next 1", "next 2"], "the first timer's firing was dropped")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(inputs, ["next 1", "next 2", "timer"])
        XCTAssertNotNil(timerRef)
        subscription.dispose()
        XCTAssertEqual(timerRef?.slot.isDisposed, true, "disposing the subscription cancels the timer")
    }
}
