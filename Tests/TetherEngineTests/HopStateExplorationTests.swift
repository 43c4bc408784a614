import TetherEngine
import XCTest

/// ``HopState`` explored exhaustively, without threads: every interleaving of two senders off the executor,
/// work submitted on the executor (between jobs and from inside a running piece), the executor's job
/// (begin, one piece at a time, end), parked senders woken or their wait refused, and a cancel at any point.
/// Each step is one critical section of ``Hop``'s runtime (or one effect it does outside the lock: a
/// piece run, a park, a wake). In every reachable state the invariants hold; in every final state every
/// accepted piece ran once, in submission order, and nobody is left parked or queued.
final class HopStateExplorationTests: XCTestCase {
    func testEveryInterleavingKeepsOrderBoundAndCancelAndWakesEveryParkedSender() {
        let explored = HopModel.explore(
            limit: 1, expectedThread: HopModel.executorThread, cancels: true, refusals: false)
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.finalStates, 100)
        XCTAssertTrue(explored.sawParked, "some interleaving parks a sender")
    }

    func testEveryInterleavingWhereWaitsAreRefusedOrBrokenQueuesPastTheBoundOnlyThen() {
        let explored = HopModel.explore(
            limit: 1, expectedThread: HopModel.executorThread, cancels: true, refusals: true)
        XCTAssertEqual(explored.violations, [])
        XCTAssertTrue(explored.sawPastTheBound, "a sender whose wait was refused queues past the bound")
    }

    func testEveryInterleavingWithARoomierBacklogAndNoCancel() {
        let explored = HopModel.explore(
            limit: 2, expectedThread: HopModel.executorThread, cancels: false, refusals: false)
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.finalStates, 10)
    }

    func testEveryInterleavingWhenTheExecutorsThreadIsUnknownQueuesPastTheBoundInstead() {
        let explored = HopModel.explore(limit: 1, expectedThread: 0, cancels: true, refusals: false)
        XCTAssertEqual(explored.violations, [])
        XCTAssertTrue(explored.sawPastTheBound, "a sender with nobody to wait for queues past the bound")
    }

    func testWorkOnTheExecutorWithNothingQueuedRunsNow() {
        var state = HopState<Int>(limit: 1)
        guard case .runNow(1) = state.submit(1, onExecutor: true) else { return XCTFail("not run now") }
        XCTAssertFalse(state.jobQueued)
    }

    func testASenderOffTheExecutorStartsOneJobAndLaterOnesQueueBehindIt() {
        var state = HopState<Int>(limit: 4)
        guard case .queuedStartingJob = state.submit(1, onExecutor: false) else { return XCTFail("no job") }
        guard case .queued = state.submit(2, onExecutor: false) else { return XCTFail("second job") }
        guard case .queued = state.submit(3, onExecutor: true) else { return XCTFail("ran before 1 and 2") }
        let (batch, wake) = state.beginJob(on: 9)
        XCTAssertEqual(Array(batch), [1, 2, 3])
        XCTAssertFalse(wake)
        XCTAssertFalse(state.endJob())
        XCTAssertFalse(state.jobQueued)
    }

    func testAFullBacklogMakesASenderWaitForTheJobsThreadAndTheJobWakesIt() {
        var state = HopState<Int>(limit: 1)
        _ = state.submit(1, onExecutor: false)
        _ = state.beginJob(on: 9)
        _ = state.submit(2, onExecutor: false)
        guard case .waitForRoom(thread: 9) = state.submit(3, onExecutor: false, waitFor: 5) else {
            return XCTFail("did not wait for the job's thread")
        }
        XCTAssertTrue(state.endJob(), "2 arrived meanwhile: a new job")
        let (batch, wake) = state.beginJob(on: 9)
        XCTAssertEqual(Array(batch), [2])
        XCTAssertTrue(wake)
    }

    func testCancelDropsWhatWaitsAndEverythingLater() {
        var state = HopState<Int>(limit: 8)
        _ = state.submit(1, onExecutor: false)
        _ = state.submit(2, onExecutor: false)
        let (dropped, _) = state.cancel()
        XCTAssertEqual(Array(dropped), [1, 2])
        guard case .dropped(3) = state.submit(3, onExecutor: true) else { return XCTFail("not dropped") }
        let (batch, _) = state.beginJob(on: 9)
        XCTAssertTrue(batch.isEmpty)
        XCTAssertFalse(state.endJob())
    }
}

/// The world of the exploration: the hop's state and every actor around it.
private struct HopModel: Hashable {
    static let executorThread: UInt = 7

    enum SenderMode: Hashable {
        case ready
        /// Told to wait (counted in `parkedSenders`), not parked yet.
        case aboutToPark(thread: UInt)
        /// Parked; `woken` once an unpark came after it parked.
        case parked(woken: Bool)
    }

    struct Sender: Hashable {
        var items: [Int]
        var mode = SenderMode.ready
        var mayWait = true
    }

    enum Executor: Hashable {
        case idle
        case running(batch: [Int], next: Int)
    }

    // The hop.
    var pending: [Int] { Array(state.pending) }
    var state: HopState<Int>
    // Around it.
    var senders: [Sender]
    var onExecutorItems: [Int]
    var jobsQueued = 0
    var executor = Executor.idle
    var accepted: [Int] = []
    var ran: [Int] = []
    var cancelled = false
    var ranAfterCancel = false
    var onExecutorSubmitted = 0
    var pastTheBound = 0
    var sawPastTheBound = false
    var boundBroken = false

    struct Exploration {
        var violations: [String] = []
        var finalStates = 0
        var sawPastTheBound = false
        var sawParked = false
        var states = 0
    }

    static func explore(limit: Int, expectedThread: UInt, cancels: Bool, refusals: Bool) -> Exploration {
        let start = HopModel(
            state: HopState(limit: limit), senders: [Sender(items: [1, 2]), Sender(items: [11, 12])],
            onExecutorItems: [21])
        var result = Exploration()
        let walk = StateSpace.explore(from: start) { world in
            world.violation(limit: limit)
        } finalViolation: { world in
            world.finalViolation()
        } successors: { world in
            result.sawPastTheBound = result.sawPastTheBound || world.sawPastTheBound
            result.sawParked = result.sawParked || world.senders.contains { $0.mode == .parked(woken: false) }
            return world.successors(expectedThread: expectedThread, cancels: cancels, refusals: refusals)
        }
        (result.states, result.finalStates, result.violations) = (walk.states, walk.finalStates, walk.violations)
        return result
    }

    /// What must hold in every state.
    func violation(limit: Int) -> String? {
        if !state.jobQueued && !(state.pending.isEmpty && state.drainer == 0) {
            return "work waits with no job on its way: \(pending)"
        }
        if state.isCancelled && !state.pending.isEmpty { return "work waits after cancel" }
        if jobsQueued > 1 { return "two jobs queued at once" }
        if state.pending.count > limit + onExecutorSubmitted + pastTheBound {
            return "backlog \(state.pending.count) past the bound \(limit)"
        }
        if ranAfterCancel { return "a piece ran after cancel" }
        if boundBroken { return "a sender queued past the full backlog though it could wait" }
        if ran != Array(accepted.prefix(ran.count)) && !cancelled {
            return "ran \(ran), submitted \(accepted)"
        }
        let parked = senders.filter { if case .ready = $0.mode { false } else { true } }.count
        if parked != state.parkedSenders { return "parked senders counted \(state.parkedSenders), are \(parked)" }
        return nil
    }

    /// What must hold when nothing can happen any more.
    func finalViolation() -> String? {
        if senders.contains(where: { !$0.items.isEmpty || $0.mode != .ready }) {
            return "a sender is stuck: \(senders)"
        }
        if !cancelled && ran != accepted { return "ran \(ran), submitted \(accepted)" }
        if cancelled && ran != Array(accepted.prefix(ran.count)) && !isSubsequence(ran, of: accepted) {
            return "ran \(ran) out of order, submitted \(accepted)"
        }
        if state.jobQueued || !state.pending.isEmpty { return "a job or work is left" }
        return nil
    }

    private func isSubsequence(_ small: [Int], of large: [Int]) -> Bool {
        var iterator = large.makeIterator()
        return small.allSatisfy { item in
            while let next = iterator.next() { if next == item { return true } }
            return false
        }
    }

    mutating func applySubmission(_ item: Int, onExecutor: Bool, sender: Int?, expectedThread: UInt) {
        let mayWait = sender.map { senders[$0].mayWait } ?? true
        let backlogBefore = state.pending.count
        // Whether a sender off the executor may queue past a full backlog: its wait was refused, or it knows
        // nobody to wait for.
        let mayPassTheBound = !mayWait || (state.drainer == 0 && expectedThread == 0)
        let submission = state.submit(item, onExecutor: onExecutor, mayWait: mayWait, waitFor: expectedThread)
        switch submission {
        case .runNow(let work):
            accepted.append(work)
            ran.append(work)
            if cancelled { ranAfterCancel = true }
        case .queued, .queuedStartingJob:
            if case .queuedStartingJob = submission { jobsQueued += 1 }
            accepted.append(item)
            if !onExecutor && backlogBefore >= state.limit {
                if !mayPassTheBound { boundBroken = true }
                pastTheBound += 1
                sawPastTheBound = true
            }
        case .dropped:
            break
        case .waitForRoom(let thread):
            senders[sender!].mode = .aboutToPark(thread: thread)
            return  // the item stays with the sender
        }
        if let sender {
            senders[sender].items.removeFirst()
            senders[sender].mayWait = true
        } else {
            onExecutorItems.removeFirst()
            onExecutorSubmitted += 1
        }
    }

    mutating func wakeParked() {
        for index in senders.indices {
            if case .parked = senders[index].mode { senders[index].mode = .parked(woken: true) }
        }
    }

    func successors(expectedThread: UInt, cancels: Bool, refusals: Bool) -> [HopModel] {
        var next: [HopModel] = []
        // Senders off the executor.
        for index in senders.indices {
            let sender = senders[index]
            switch sender.mode {
            case .ready:
                guard let item = sender.items.first else { continue }
                var world = self
                world.applySubmission(item, onExecutor: false, sender: index, expectedThread: expectedThread)
                next.append(world)
            case .aboutToPark:
                // The park's check, under the parking bucket's mutex: parks only while the backlog is full.
                var world = self
                if state.isFull {
                    world.senders[index].mode = .parked(woken: false)
                } else {
                    world.state.endWait()
                    world.senders[index].mode = .ready
                }
                next.append(world)
                // Or the wait is refused (it would close a cycle): queue past the bound.
                guard refusals else { continue }
                var refused = self
                refused.state.endWait()
                refused.senders[index].mode = .ready
                refused.senders[index].mayWait = false
                next.append(refused)
            case .parked(let woken):
                if woken {
                    var world = self
                    world.state.endWait()
                    world.senders[index].mode = .ready
                    next.append(world)
                }
                guard refusals else { continue }
                var broken = self  // a firm wait closing a cycle breaks it
                broken.state.endWait()
                broken.senders[index].mode = .ready
                broken.senders[index].mayWait = false
                next.append(broken)
            }
        }
        // The executor: one job at a time; work submitted on it between jobs or from inside a piece.
        switch executor {
        case .idle:
            if jobsQueued == 1 {
                var world = self
                world.jobsQueued = 0
                let (batch, wake) = world.state.beginJob(on: Self.executorThread)
                if wake { world.wakeParked() }
                world.executor = .running(batch: Array(batch), next: 0)
                next.append(world)
            }
        case .running(let batch, let index):
            var world = self
            if index < batch.count && !state.isCancelled {
                world.ran.append(batch[index])
                world.executor = .running(batch: batch, next: index + 1)
            } else {
                if world.state.endJob() { world.jobsQueued += 1 }
                world.executor = .idle
            }
            next.append(world)
        }
        if let item = onExecutorItems.first {
            var world = self
            world.applySubmission(item, onExecutor: true, sender: nil, expectedThread: expectedThread)
            next.append(world)
        }
        if cancels && !cancelled {
            var world = self
            world.cancelled = true
            let (_, wake) = world.state.cancel()
            if wake { world.wakeParked() }
            next.append(world)
        }
        return next
    }
}
