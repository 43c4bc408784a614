import Foundation
import Observable
import Synchronization
import TetherEngine
import XCTest

// Deterministic interleavings of real threads, for the tests of the synchronization primitives (issue 30).
//
// Each *actor* is a real thread running a closure. It stops at every `Interleaving.point("label")` it
// reaches, and whenever it parks in `ParkingLot` (a contended `Lock`, a sender waiting for room in a full
// backlog, a `dispose()` waiting for a callback): the harness learns of a park, and of the wake-up that ends
// it, through `ParkingLot`'s observer — never by sleeping. Only one actor runs at a time; the script (or the
// explorer) chooses which one runs next, and the chosen actor runs until it stops again. Between two steps
// every actor is stopped at a point, parked, woken and waiting for its turn, or finished, so what a test
// reads then is the same in every run of the same schedule.
//
// `exploreInterleavings` enumerates every schedule of a small scenario (depth-first, re-running the scenario
// from scratch for each one) and checks its invariants after each. When no actor can run and some are
// parked, the run is a deadlock, found without any timeout; a watchdog turns anything else that hangs (an
// actor blocked outside `ParkingLot`) into a failure.

/// One scripted run of a few actors (see the notes at the top of Interleaving.swift).
///
/// <!-- example: skip -->
/// ```swift
/// let run = Interleaving()
/// let a = run.spawn("A") { gate.submitEvent(1) { Interleaving.point("inside \($0)") } }
/// let b = run.spawn("B") { gate.submitEvent(2) { _ in } }
/// run.step(a)                      // A owns the gate, stopped inside op 1
/// XCTAssertEqual(run.state(of: a), .ready("inside 1"))
/// run.step(b)                      // B queues op 2 and returns
/// XCTAssertEqual(run.state(of: b), .finished)
/// run.finish()                     // A performs op 2 and releases the gate
/// ```
package final class Interleaving: @unchecked Sendable {
    // Safety: every field below `monitor` is guarded by it.

    /// Where an actor is between two steps.
    package enum State: Equatable, CustomStringConvertible {
        /// Stopped at a point (or `"start"`), waiting for its turn.
        case ready(String)
        /// Its turn: running (only during a step).
        case running
        /// Waiting in `ParkingLot.park` on this address.
        case parked(UInt)
        /// Woken by another actor, not yet back from the wait (only during a step).
        case waking
        /// Back from a wait, waiting for its turn.
        case woken
        /// Its closure returned.
        case finished

        package var description: String {
            switch self {
            case .ready(let label): "at \"\(label)\""
            case .running: "running"
            case .parked: "parked"
            case .waking: "being woken"
            case .woken: "woken"
            case .finished: "finished"
            }
        }

        /// Whether the actor may be given the next turn.
        package var isRunnable: Bool {
            switch self {
            case .ready, .woken: true
            default: false
            }
        }

        /// Whether the actor waits in `ParkingLot.park`.
        package var isParked: Bool {
            if case .parked = self { return true }
            return false
        }
    }

    final class Actor {
        let name: String
        var state: State = .ready("start")
        var threadID: UInt = 0
        /// How many times it parked.
        var parks = 0
        var registered = false

        init(name: String) {
            self.name = name
        }
    }

    private let monitor = NSCondition()
    private var actors: [Actor] = []
    /// The actor whose turn it is (nil: the controller's).
    private var turn: Int?
    /// Set when the run failed: actors then run freely to their end (points no longer stop them).
    private var abandoned = false
    private var steps: [String] = []
    private let watchdog: TimeInterval
    private let file: StaticString
    private let line: UInt

    /// `watchdog`: how long one step may take before the run fails as hung (far above what a step needs).
    package init(watchdog: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) {
        self.watchdog = watchdog
        self.file = file
        self.line = line
        InterleavingRegistry.shared.installObserver()
        InterleavingRegistry.shared.activeRuns.wrappingAdd(1, ordering: .relaxed)
    }

    deinit {
        // After every actor thread let the run go: its parks and wake-ups are over.
        InterleavingRegistry.shared.activeRuns.wrappingSubtract(1, ordering: .relaxed)
    }

    // MARK: Inside actors

    /// Stops the calling actor at `label` until the script gives it its next turn. Does nothing on a
    /// thread that is not an actor (so the same instrumented callbacks can run anywhere).
    package static func point(_ label: @autoclosure () -> String) {
        guard let (run, index) = InterleavingRegistry.shared.actor(of: currentThreadID) else { return }
        run.stop(index, at: label())
    }

    /// The name of the calling actor, or `nil` on another thread.
    package static var currentActorName: String? {
        guard let (run, index) = InterleavingRegistry.shared.actor(of: currentThreadID) else { return nil }
        run.monitor.lock()
        defer { run.monitor.unlock() }
        return run.actors[index].name
    }

    private func stop(_ index: Int, at label: String) {
        monitor.lock()
        defer { monitor.unlock() }
        if abandoned { return }
        actors[index].state = .ready(label)
        handBack()
        waitForTurn(index)
    }

    /// Called with `monitor` held: the running actor stopped; the controller takes over.
    private func handBack() {
        turn = nil
        monitor.broadcast()
    }

    /// Called with `monitor` held: waits until the controller gives `index` the turn.
    private func waitForTurn(_ index: Int) {
        while turn != index && !abandoned { monitor.wait() }
    }

    // Told by the registry (ParkingLot's observer). `willPark` and `didUnpark` run under a bucket mutex.

    func noteParked(_ index: Int, on address: UInt) {
        monitor.lock()
        defer { monitor.unlock() }
        if abandoned { return }
        actors[index].state = .parked(address)
        actors[index].parks += 1
        handBack()
    }

    func noteWaking(_ index: Int) {
        monitor.lock()
        defer { monitor.unlock() }
        if abandoned { return }
        actors[index].state = .waking
    }

    func noteResumed(_ index: Int) {
        monitor.lock()
        defer { monitor.unlock() }
        if abandoned { return }
        actors[index].state = .woken
        monitor.broadcast()
        waitForTurn(index)
    }

    // MARK: The script

    /// Starts an actor: a thread that runs `body` once given its first turn. Returns its index.
    @discardableResult
    package func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) -> Int {
        monitor.lock()
        let index = actors.count
        actors.append(Actor(name: name))
        monitor.unlock()
        // The closure, in a box the thread empties once it returned: what it captured is released while the
        // thread is still this actor (a deinit that ends a subscription is part of the actor's last step,
        // not something running on an unknown thread while the next actor takes its turn).
        let work = ActorWork(body)
        let thread = Thread { [self] in
            let me = currentThreadID
            InterleavingRegistry.shared.register(me, run: self, index: index)
            monitor.lock()
            actors[index].threadID = me
            actors[index].registered = true
            monitor.broadcast()
            waitForTurn(index)
            monitor.unlock()
            work.run()
            InterleavingRegistry.shared.unregister(me)
            monitor.lock()
            actors[index].state = .finished
            if turn == index { handBack() }
            monitor.broadcast()
            monitor.unlock()
        }
        thread.stackSize = 1 << 20
        thread.start()
        monitor.lock()
        defer { monitor.unlock() }
        let deadline = Date().addingTimeInterval(watchdog)
        while !actors[index].registered {
            if !monitor.wait(until: deadline) {
                failLocked("actor \(name) did not start")
                break
            }
        }
        return index
    }

    /// The state of actor `index` (between steps).
    package func state(of index: Int) -> State {
        monitor.lock()
        defer { monitor.unlock() }
        return actors[index].state
    }

    /// How many times actor `index` parked so far.
    package func parks(of index: Int) -> Int {
        monitor.lock()
        defer { monitor.unlock() }
        return actors[index].parks
    }

    /// The name of the actor that ran on thread `thread` (a `currentThreadID`), or `nil`: for recorders
    /// that note the cheap thread ID on a hot path and name it afterwards.
    package func actorName(ofThread thread: UInt) -> String? {
        monitor.lock()
        defer { monitor.unlock() }
        return actors.first { $0.threadID == thread }?.name
    }

    /// The thread ID (`currentThreadID`) of actor `index`.
    package func threadID(of index: Int) -> UInt {
        monitor.lock()
        defer { monitor.unlock() }
        return actors[index].threadID
    }

    /// The actors that may be given the next turn, in index order.
    package var runnable: [Int] {
        monitor.lock()
        defer { monitor.unlock() }
        return actors.indices.filter { actors[$0].state.isRunnable }
    }

    /// Whether every actor's closure returned.
    package var allFinished: Bool {
        monitor.lock()
        defer { monitor.unlock() }
        return actors.allSatisfy { $0.state == .finished }
    }

    /// Whether the run failed (a hang, a deadlock, a script error): later steps do nothing.
    package var failed: Bool {
        monitor.lock()
        defer { monitor.unlock() }
        return abandoned
    }

    /// The steps taken so far, as "name → where it stopped", for failure messages.
    package var schedule: String {
        monitor.lock()
        defer { monitor.unlock() }
        return steps.joined(separator: "; ")
    }

    /// Gives actor `index` its turn and waits until every actor is stopped again (the one that ran at a
    /// point, parked or finished; any actor it woke back from its wait). Returns the actor's new state.
    @discardableResult
    package func step(_ index: Int, file: StaticString = #filePath, line: UInt = #line) -> State {
        monitor.lock()
        defer { monitor.unlock() }
        if abandoned { return actors[index].state }
        guard actors[index].state.isRunnable else {
            failLocked(
                "\(actors[index].name) cannot run: it is \(actors[index].state) (after \(steps.joined(separator: "; ")))",
                file: file, line: line)
            return actors[index].state
        }
        actors[index].state = .running
        turn = index
        monitor.broadcast()
        let deadline = Date().addingTimeInterval(watchdog)
        while !isQuiescent {
            if !monitor.wait(until: deadline) {
                failLocked(
                    "hung: \(actors[index].name)'s step did not end within \(watchdog) s (blocked outside "
                        + "ParkingLot?); " + describeLocked(), file: file, line: line)
                return actors[index].state
            }
        }
        steps.append("\(actors[index].name) → \(actors[index].state)")
        return actors[index].state
    }

    /// Steps actor `index` until it stops at `label` (or finishes, parks, or the run fails).
    @discardableResult
    package func run(_ index: Int, to label: String, file: StaticString = #filePath, line: UInt = #line) -> State {
        var state = step(index, file: file, line: line)
        while case .ready(let reached) = state, reached != label, !failed {
            state = step(index, file: file, line: line)
        }
        if state != .ready(label) {
            fail("\(actorName(index)) did not reach \"\(label)\": it is \(state)", file: file, line: line)
        }
        return state
    }

    /// Runs the remaining actors to their end, always the runnable one with the lowest index first
    /// (`order` first, when given). Fails on a deadlock. Returns whether all finished.
    @discardableResult
    package func finish(order: [Int] = [], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        while !failed {
            let candidates = runnable
            if candidates.isEmpty {
                if allFinished { return true }
                fail("deadlock: no actor can run; " + describe(), file: file, line: line)
                return false
            }
            let next = order.first(where: candidates.contains) ?? candidates[0]
            step(next, file: file, line: line)
        }
        return false
    }

    /// Fails the test and abandons the run.
    package func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        monitor.lock()
        defer { monitor.unlock() }
        failLocked(message, file: file, line: line)
    }

    /// Every actor's state, for failure messages.
    package func describe() -> String {
        monitor.lock()
        defer { monitor.unlock() }
        return describeLocked()
    }

    private func actorName(_ index: Int) -> String {
        monitor.lock()
        defer { monitor.unlock() }
        return actors[index].name
    }

    private var isQuiescent: Bool {
        actors.allSatisfy { $0.state != .running && $0.state != .waking }
    }

    private func describeLocked() -> String {
        actors.map { "\($0.name) \($0.state)" }.joined(separator: ", ")
            + (steps.isEmpty ? "" : " (schedule: \(steps.joined(separator: "; ")))")
    }

    private func failLocked(_ message: String, file: StaticString? = nil, line: UInt? = nil) {
        if abandoned { return }
        abandoned = true
        monitor.broadcast()
        XCTFail(message, file: file ?? self.file, line: line ?? self.line)
    }

    /// Waits (watchdog) for every actor thread to end; called once the run is over.
    func awaitThreadsEnded() {
        monitor.lock()
        defer { monitor.unlock() }
        let deadline = Date().addingTimeInterval(watchdog)
        while !actors.allSatisfy({ $0.state == .finished }) {
            if !monitor.wait(until: deadline) { return }
        }
    }
}

/// An actor's closure, released as soon as it has run (see `Interleaving.spawn`).
private final class ActorWork: @unchecked Sendable {
    // Safety: touched only by the actor's thread once it started.
    private var body: (@Sendable () -> Void)?

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func run() {
        body?()
        body = nil
    }
}

// MARK: Exhaustive exploration

/// Runs `scenario` once for every schedule of its actors and returns how many schedules ran.
///
/// `scenario` spawns the actors of a fresh run (and builds their shared state), and returns the check to
/// run once every actor finished: the violations it found (empty: none). Points and parks are where the
/// schedules branch; the first run always picks the runnable actor with the lowest index, and each later run
/// changes the last choice that has an alternative left (depth-first). A deadlock, a hang, a violation, or a
/// run that did not reproduce the choices of the schedule it replays fails the test with the schedule, and
/// stops the exploration. `maxSchedules` turns an exploration much larger than intended into a failure.
///
/// <!-- example: skip -->
/// ```swift
/// let schedules = exploreInterleavings { run in
///     let gate = SerialGate<Int>(); let log = Locked<[Int]>([])
///     run.spawn("A") { gate.submitEvent(1) { Interleaving.point("op \($0)"); log.mutate { $0.append(1) } } }
///     run.spawn("B") { gate.submitEvent(2) { Interleaving.point("op \($0)"); log.mutate { $0.append(2) } } }
///     return { log.value.sorted() == [1, 2] ? [] : ["lost: \(log.value)"] }
/// }
/// ```
@discardableResult
package func exploreInterleavings(
    maxSchedules: Int = 20_000, watchdog: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line,
    afterEachStep: ((Interleaving) -> String?)? = nil,
    _ scenario: (Interleaving) -> () -> [String]
) -> Int {
    // The choices of the schedule to replay (indices into the runnable list), then what the run chose.
    var prefix: [Int] = []
    var schedules = 0
    while true {
        schedules += 1
        if schedules > maxSchedules {
            XCTFail("more than \(maxSchedules) schedules: a larger scenario than intended", file: file, line: line)
            return schedules - 1
        }
        let run = Interleaving(watchdog: watchdog, file: file, line: line)
        let check = scenario(run)
        var choices: [(chosen: Int, options: Int)] = []
        while !run.failed {
            let candidates = run.runnable
            if candidates.isEmpty {
                if !run.allFinished {
                    run.fail("deadlock: no actor can run; " + run.describe(), file: file, line: line)
                }
                break
            }
            let depth = choices.count
            let chosen = depth < prefix.count ? prefix[depth] : 0
            if chosen >= candidates.count {
                run.fail(
                    "schedule \(schedules) did not replay: \(candidates.count) actors can run at step \(depth + 1), "
                        + "the schedule chose the \(chosen + 1)th; " + run.describe(), file: file, line: line)
                break
            }
            choices.append((chosen, candidates.count))
            run.step(candidates[chosen], file: file, line: line)
            if let afterEachStep, !run.failed, let violation = afterEachStep(run) {
                run.fail("schedule \(schedules): \(violation); " + run.describe(), file: file, line: line)
            }
        }
        if run.failed { return schedules }
        run.awaitThreadsEnded()
        let violations = check()
        if !violations.isEmpty {
            XCTFail(
                "schedule \(schedules) (\(run.schedule)): " + violations.joined(separator: "; "), file: file, line: line
            )
            return schedules
        }
        // Depth-first: the deepest choice with an alternative left.
        guard let depth = choices.lastIndex(where: { $0.chosen + 1 < $0.options }) else { return schedules }
        prefix = choices[..<depth].map(\.chosen) + [choices[depth].chosen + 1]
    }
}

// MARK: The observer of ParkingLot

/// Which thread is which run's actor, and which parked wait is whose; ParkingLot's observer.
final class InterleavingRegistry: ParkingLotObserver, @unchecked Sendable {
    // Safety: `threads` and `waits` are guarded by `lock` (a pthread mutex: it never parks in ParkingLot,
    // and is taken under a bucket mutex, never the other way round).
    static let shared = InterleavingRegistry()

    private let lock = NSLock()
    /// How many runs exist: with none, the observer returns at once (the observer stays installed for the
    /// rest of the process, and other tests' threads park too — a stress test's thousands of parks must not
    /// all go through this lock).
    let activeRuns = Atomic<Int>(0)
    private var threads: [UInt: (Interleaving, Int)] = [:]
    private var waits: [UInt: (Interleaving, Int)] = [:]
    private var installed = false

    func installObserver() {
        lock.lock()
        defer { lock.unlock() }
        if installed { return }
        installed = true
        if !ParkingLot.observe(with: self) { XCTFail("another ParkingLot observer is installed") }
    }

    func register(_ thread: UInt, run: Interleaving, index: Int) {
        lock.lock()
        threads[thread] = (run, index)
        lock.unlock()
    }

    func unregister(_ thread: UInt) {
        lock.lock()
        threads[thread] = nil
        lock.unlock()
    }

    func actor(of thread: UInt) -> (Interleaving, Int)? {
        lock.lock()
        defer { lock.unlock() }
        return threads[thread]
    }

    func willPark(_ waiter: UInt, on address: UInt) {
        if activeRuns.load(ordering: .relaxed) == 0 { return }
        lock.lock()
        let actor = threads[currentThreadID]
        if let actor { waits[waiter] = actor }
        lock.unlock()
        if let (run, index) = actor { run.noteParked(index, on: address) }
    }

    func didUnpark(_ waiter: UInt, on address: UInt) {
        if activeRuns.load(ordering: .relaxed) == 0 { return }
        lock.lock()
        let actor = waits[waiter]
        lock.unlock()
        if let (run, index) = actor { run.noteWaking(index) }
    }

    func didResume(_ waiter: UInt, on address: UInt) {
        if activeRuns.load(ordering: .relaxed) == 0 { return }
        lock.lock()
        let actor = waits.removeValue(forKey: waiter)
        lock.unlock()
        if let (run, index) = actor { run.noteResumed(index) }
    }
}
