import TetherEngine
import XCTest

/// ``RerunState`` explored exhaustively, without threads: every interleaving of two or three requesters
/// (asking for a run now or at the end of a coalescing window), the runner's start and end of each run, a
/// window's timer started, fired and cancelled, and a dispose at any point. Each step is one critical
/// section of ``Rerun``'s runtime or one effect it does outside the lock (a run beginning or returning, a
/// timer started or cancelled, a timer firing). In every reachable state the invariants hold; in every
/// final state a run began after every request made before the dispose, nothing is left running or
/// scheduled. Seeded bugs — alternative transitions, chosen by a flag in the model — are each caught.
final class RerunStateExplorationTests: XCTestCase {
    func testEveryInterleavingOfThreeRequestersAndADispose() {
        let explored = RerunModel.explore(scripts: [[.now, .now], [.now, .now], [.now], [.dispose]])
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.finalStates, 10)
        XCTAssertTrue(explored.sawRunAgain, "some interleaving makes the runner go again")
        XCTAssertTrue(explored.sawRunStartAfterDispose, "a run given before dispose may begin after it")
        print("RerunState, three requesters now and a dispose: \(explored.summary)")
    }

    func testEveryInterleavingOfThreeRequestersWithoutDisposeServesEveryRequest() {
        let explored = RerunModel.explore(scripts: [[.now, .now], [.now, .now], [.now, .now]])
        XCTAssertEqual(explored.violations, [])
        XCTAssertTrue(explored.sawRunAgain)
        print("RerunState, three requesters now: \(explored.summary)")
    }

    func testEveryInterleavingOfRequestsInWindowsAndADispose() {
        let explored = RerunModel.explore(
            scripts: [[.inWindow, .inWindow], [.inWindow, .inWindow], [.dispose]], windowedOnly: true)
        XCTAssertEqual(explored.violations, [])
        XCTAssertTrue(explored.sawCoalesced, "some request joins an open window")
        XCTAssertTrue(explored.sawTimerElapsedBeforeStarted, "a timer may fire before it is told to the state")
        XCTAssertTrue(explored.sawTimerCancelled, "dispose cancels an open window")
        print("RerunState, two requesters in windows and a dispose: \(explored.summary)")
    }

    func testEveryInterleavingOfRequestsNowAndInWindowsAndADispose() {
        let explored = RerunModel.explore(scripts: [[.inWindow, .now], [.inWindow], [.now], [.dispose]])
        XCTAssertEqual(explored.violations, [])
        print("RerunState, mixed requests and a dispose: \(explored.summary)")
    }

    func testEachSeededBugIsCaught() {
        let cases: [(RerunModel.Bug, [[RerunModel.Op]], Bool)] = [
            (.lostRequest, [[.now, .now], [.now]], false),
            (.secondRunner, [[.now], [.now]], false),
            (.runAgainAfterDispose, [[.now, .now], [.now], [.dispose]], false),
            (.disposeKeepsTimer, [[.inWindow], [.dispose]], true),
            (.startedTimerKeptAfterDispose, [[.inWindow], [.dispose]], true),
            (.windowPerRequest, [[.inWindow], [.inWindow]], true),
        ]
        for (bug, scripts, windowedOnly) in cases {
            let explored = RerunModel.explore(scripts: scripts, windowedOnly: windowedOnly, bug: bug)
            XCTAssertFalse(explored.violations.isEmpty, "\(bug) was not caught")
            print("RerunState, seeded bug \(bug) caught: \(explored.violations.first ?? "")")
        }
    }

    func testARequestWhileRunningMakesTheRunnerGoAgainOnce() {
        var state = RerunState<Int>()
        XCTAssertEqual(state.request(), .run)
        XCTAssertEqual(state.request(), .runnerGoesAgain)
        XCTAssertEqual(state.request(), .runnerGoesAgain)
        XCTAssertEqual(state.runEnded(), .runAgain)
        XCTAssertEqual(state.runEnded(), .stop)
        XCTAssertFalse(state.isRunning)
        XCTAssertEqual(state.request(), .run)
    }

    func testDisposeStopsTheRunnerAndReturnsTheOpenWindowsTimer() {
        var state = RerunState<Int>()
        XCTAssertEqual(state.requestInWindow(), .startWindow(number: 1))
        XCTAssertEqual(state.windowStarted(1, timer: 42), .kept)
        XCTAssertEqual(state.requestInWindow(), .coalesced)
        XCTAssertEqual(state.request(), .run)
        XCTAssertEqual(state.request(), .runnerGoesAgain)
        XCTAssertEqual(state.dispose(), 42)
        XCTAssertEqual(state.runEnded(), .stop)
        XCTAssertEqual(state.request(), .disposed)
        XCTAssertEqual(state.requestInWindow(), .disposed)
        XCTAssertEqual(state.windowElapsed(1), .disposed)
    }

    func testATimerFiringBeforeItIsToldIsNotKeptAsALaterWindows() {
        var state = RerunState<Int>()
        XCTAssertEqual(state.requestInWindow(), .startWindow(number: 1))
        XCTAssertEqual(state.windowElapsed(1), .run)  // window 1's timer fired at once
        XCTAssertEqual(state.requestInWindow(), .startWindow(number: 2))
        XCTAssertEqual(state.windowStarted(2, timer: 20), .kept)
        XCTAssertEqual(state.windowStarted(1, timer: 10), .elapsed)  // late: window 2's timer stays
        XCTAssertEqual(state.dispose(), 20)
        XCTAssertEqual(state.windowStarted(3, timer: 30), .cancel(30))
    }
}

/// The world of the exploration: the state and every thread around it.
private struct RerunModel: Hashable {
    /// What a scripted thread does next.
    enum Op: Hashable {
        /// `Rerun.runNow()`: a request now.
        case now
        /// `Rerun.request()` with a window: a request at the end of the window.
        case inWindow
        /// `Rerun.dispose()`.
        case dispose
    }

    /// Alternative transitions, each one mistake away from ``RerunState``'s.
    enum Bug: Hashable {
        /// A request made while the work runs is not remembered.
        case lostRequest
        /// A request made while the work runs starts a second run.
        case secondRunner
        /// The runner goes again after dispose when a request came before it.
        case runAgainAfterDispose
        /// Dispose forgets the open window's timer instead of returning it to be cancelled.
        case disposeKeepsTimer
        /// A timer told to the state after dispose is kept instead of cancelled.
        case startedTimerKeptAfterDispose
        /// Every request in a window opens a window of its own (no coalescing).
        case windowPerRequest
    }

    /// Where a thread is, between two steps.
    enum Phase: Hashable {
        /// Before its next scripted operation (or done, when the script is empty).
        case ready
        /// Told to start window `number`'s timer.
        case startingTimer(window: Int)
        /// Started `timer` for window `window`; about to tell the state.
        case tellingTimer(window: Int, timer: Int)
        /// About to cancel `timer`.
        case cancelling(timer: Int)
        /// Given a run (by a request, a window's end, or ``RerunState/AfterRun/runAgain``): about to begin it.
        case given
        /// Inside the work.
        case running
        /// The work returned: about to ask whether to go again.
        case ended
    }

    struct Thread: Hashable {
        var script: [Op]
        var phase = Phase.ready
    }

    var state = RerunState<Int>()
    var threads: [Thread]
    /// Timers started and not fired or cancelled: timer → its window.
    var timers: [Int: Int] = [:]
    var timersStarted = 0
    /// Requests made before the dispose with no run begun after them.
    var unserved = 0
    var disposed = false
    var runGivenAfterDispose = false
    var runsBegun = 0
    var windowsElapsed = 0
    var runStartedAfterDispose = false
    /// Shadows for the seeded bugs.
    var shadowAgain = false
    var extraWindows = 0
    let bug: Bug?

    struct Exploration {
        var violations: [String] = []
        var states = 0
        var finalStates = 0
        var sawRunAgain = false
        var sawRunStartAfterDispose = false
        var sawCoalesced = false
        var sawTimerElapsedBeforeStarted = false
        var sawTimerCancelled = false

        var summary: String { "\(states) states, \(finalStates) final" }
    }

    static func explore(scripts: [[Op]], windowedOnly: Bool = false, bug: Bug? = nil) -> Exploration {
        let start = RerunModel(threads: scripts.map { Thread(script: $0) }, bug: bug)
        var result = Exploration()
        let walk = StateSpace.explore(from: start) { world in
            world.violation(windowedOnly: windowedOnly)
        } finalViolation: { world in
            world.finalViolation()
        } successors: { world in
            result.sawRunStartAfterDispose = result.sawRunStartAfterDispose || world.runStartedAfterDispose
            var next: [RerunModel] = []
            world.successors(into: &next, result: &result)
            return next
        }
        (result.states, result.finalStates, result.violations) = (walk.states, walk.finalStates, walk.violations)
        return result
    }

    /// What must hold in every state.
    func violation(windowedOnly: Bool) -> String? {
        let runners = threads.filter { [.given, .running, .ended].contains($0.phase) }.count
        if threads.filter({ $0.phase == .running }).count > 1 { return "two runs at once" }
        if runners > 1 { return "two runners at once" }
        if state.isRunning != (runners == 1) { return "the state says running \(state.isRunning), runners: \(runners)" }
        if runGivenAfterDispose { return "a run was given after dispose" }
        let startingTimers = threads.filter { if case .startingTimer = $0.phase { true } else { false } }.count
        if timers.count + startingTimers > 1 { return "two windows at once: timers \(timers)" }
        if windowedOnly && runsBegun > windowsElapsed {
            return "\(runsBegun) runs for \(windowsElapsed) windows: requests in a window ran more than once"
        }
        let timerInFlight = threads.contains {
            switch $0.phase {
            case .startingTimer, .tellingTimer, .cancelling: true
            default: false
            }
        }
        if disposed && !timerInFlight && !timers.isEmpty { return "a timer is left after dispose: \(timers)" }
        return nil
    }

    /// What must hold when nothing can happen any more.
    func finalViolation() -> String? {
        if unserved != 0 { return "\(unserved) request(s) made before dispose with no run after them" }
        if state.isRunning { return "the state is left running" }
        if state.openWindow != nil { return "a window is left open" }
        if !timers.isEmpty { return "a timer is left" }
        return nil
    }

    // The transitions, each with its seeded alternative.

    mutating func request() -> RerunState<Int>.Request {
        if state.isRunning && !state.isDisposed {
            switch bug {
            case .lostRequest: return .runnerGoesAgain
            case .secondRunner:
                _ = state.request()
                return .run
            default: break
            }
        }
        let request = state.request()
        if request == .runnerGoesAgain { shadowAgain = true }
        return request
    }

    mutating func runEnded() -> RerunState<Int>.AfterRun {
        if bug == .runAgainAfterDispose && shadowAgain && state.isDisposed {
            shadowAgain = false
            return .runAgain  // the state stays running: the runner goes again
        }
        let after = state.runEnded()
        if after == .runAgain { shadowAgain = false }
        return after
    }

    mutating func requestInWindow() -> RerunState<Int>.WindowRequest {
        let request = state.requestInWindow()
        if bug == .windowPerRequest, request == .coalesced {
            extraWindows += 1
            return .startWindow(number: -extraWindows)  // a window the state does not know
        }
        return request
    }

    mutating func windowStarted(_ number: Int, timer: Int) -> RerunState<Int>.TimerStarted {
        if number < 0 { return .kept }
        let started = state.windowStarted(number, timer: timer)
        if bug == .startedTimerKeptAfterDispose, case .cancel = started { return .kept }
        return started
    }

    mutating func windowElapsed(_ number: Int) -> RerunState<Int>.Request {
        if number < 0 { return request() }
        return state.windowElapsed(number)
    }

    mutating func dispose() -> Int? {
        let timer = state.dispose()
        return bug == .disposeKeepsTimer ? nil : timer
    }

    /// A thread was given a run.
    mutating func give(_ index: Int) {
        if disposed { runGivenAfterDispose = true }
        threads[index].phase = .given
    }

    mutating func requestMade() {
        if !disposed { unserved += 1 }
    }

    func successors(into next: inout [RerunModel], result: inout Exploration) {
        for index in threads.indices {
            var world = self
            let thread = threads[index]
            switch thread.phase {
            case .ready:
                guard let op = thread.script.first else { continue }
                world.threads[index].script.removeFirst()
                switch op {
                case .now:
                    world.requestMade()
                    switch world.request() {
                    case .run: world.give(index)
                    case .runnerGoesAgain: result.sawRunAgain = true
                    case .disposed: break
                    }
                case .inWindow:
                    world.requestMade()
                    switch world.requestInWindow() {
                    case .startWindow(let number): world.threads[index].phase = .startingTimer(window: number)
                    case .coalesced: result.sawCoalesced = true
                    case .disposed: break
                    }
                case .dispose:
                    world.disposed = true
                    world.unserved = 0  // dispose forgives what it stops
                    if let timer = world.dispose() { world.threads[index].phase = .cancelling(timer: timer) }
                }
            case .startingTimer(let window):
                world.timersStarted += 1
                world.timers[world.timersStarted] = window
                world.threads[index].phase = .tellingTimer(window: window, timer: world.timersStarted)
            case .tellingTimer(let window, let timer):
                switch world.windowStarted(window, timer: timer) {
                case .kept: world.threads[index].phase = .ready
                case .elapsed:
                    result.sawTimerElapsedBeforeStarted = true
                    world.threads[index].phase = .ready
                case .cancel(let timer): world.threads[index].phase = .cancelling(timer: timer)
                }
            case .cancelling(let timer):
                if world.timers.removeValue(forKey: timer) != nil { result.sawTimerCancelled = true }
                world.threads[index].phase = .ready
            case .given:
                world.runsBegun += 1
                world.unserved = 0  // the run begins after every request made so far
                if world.disposed { world.runStartedAfterDispose = true }
                world.threads[index].phase = .running
            case .running:
                world.threads[index].phase = .ended
            case .ended:
                switch world.runEnded() {
                case .runAgain: world.give(index)
                case .stop: world.threads[index].phase = .ready
                }
            }
            next.append(world)
        }
        // The scheduler: a timer fires on a thread of its own, which runs the work if told to.
        for (timer, window) in timers {
            var world = self
            world.timers[timer] = nil
            world.windowsElapsed += 1
            if world.windowElapsed(window) == .run {
                world.threads.append(Thread(script: []))
                world.give(world.threads.count - 1)
            }
            next.append(world)
        }
    }
}
