import Foundation
import Observable
import Synchronization
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

// Kept identical in Tests/ObservableTests, Tests/BridgesTests and Tests/BindingTests (each test target
// needs its own copy): ReliabilitySupport.swift in their Reliability folders.

/// How hard the stress tests push: iteration counts are multiplied by this factor.
///
/// `TETHER_STRESS_SCALE` (a number, e.g. `0.25`) sets it; the default is `1` (8 threads × 100,000 sends),
/// which the whole stress suite holds in about 25 s in a debug build and 100 s under Thread Sanitizer on
/// two cores. Lower it on a slower or busier machine. Every count is at least 1.
enum StressScale {
    static let factor: Double = {
        if let text = ProcessInfo.processInfo.environment["TETHER_STRESS_SCALE"], let value = Double(text),
            value > 0
        {
            return value
        }
        return 1
    }()

    /// Whether this process was built with `-sanitize=address` (which quarantines freed memory).
    static let isRunningUnderAddressSanitizer: Bool = {
        #if canImport(Glibc)
            return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        #else
            return false
        #endif
    }()

    /// `count` scaled by ``factor``.
    static func scaled(_ count: Int) -> Int {
        max(1, Int((Double(count) * factor).rounded()))
    }
}

/// Checks one subscription's deliveries: the grammar `next* (error | completed)?`, nothing after
/// `dispose()` returned, and no two callbacks running at once.
///
/// The counters are plain variables on purpose: the library must serialize deliveries to one
/// observer with proper happens-before edges, and if it does not, Thread Sanitizer reports the race
/// on these variables. Overlap is also detected directly, with a relaxed atomic (which creates no
/// happens-before edge and so hides nothing from TSan).
final class GrammarMonitor<Value>: @unchecked Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let disposeReturned = Atomic<Bool>(false)
    private let afterDisposeCount = Atomic<Int>(0)

    // Touched only by deliveries (serialized by the library) and read after the subscription ended.
    private(set) var nextCount = 0
    private(set) var terminalCount = 0
    private(set) var eventsAfterTerminal = 0
    private(set) var lastEvent: Event<Value, Never>?
    /// Called with each value, inside the serialized delivery.
    var onValue: ((Value) -> Void)?

    var overlaps: Int { overlapCount.load(ordering: .relaxed) }
    var eventsAfterDispose: Int { afterDisposeCount.load(ordering: .relaxed) }

    func receive<Failure: Error>(_ event: Event<Value, Failure>) {
        if inside.exchange(true, ordering: .relaxed) { overlapCount.add(1, ordering: .relaxed) }
        if disposeReturned.load(ordering: .relaxed) { afterDisposeCount.add(1, ordering: .relaxed) }
        if terminalCount > 0 { eventsAfterTerminal += 1 }
        switch event {
        case .next(let value):
            nextCount += 1
            onValue?(value)
            lastEvent = .next(value)
        case .error, .completed:
            terminalCount += 1
            lastEvent = .completed
        }
        inside.store(false, ordering: .relaxed)
    }

    /// Call right after `dispose()` returned.
    func markDisposed() {
        disposeReturned.store(true, ordering: .relaxed)
    }

    /// Subscribes `source` and monitors the subscription.
    func subscribe<S: SignalConvertible>(to source: S) -> any Disposable where S.Value == Value {
        source.subscribeEvents { [self] event in receive(event) }
    }

    /// Asserts the grammar, no overlap and nothing after disposal.
    func assertWellFormed(_ label: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(overlaps, 0, "\(label): overlapping deliveries", file: file, line: line)
        XCTAssertEqual(eventsAfterTerminal, 0, "\(label): events after a terminal event", file: file, line: line)
        XCTAssertLessThanOrEqual(terminalCount, 1, "\(label): more than one terminal event", file: file, line: line)
        XCTAssertEqual(eventsAfterDispose, 0, "\(label): events after dispose() returned", file: file, line: line)
    }
}

/// Runs `body` on `count` threads released together, and fails (instead of hanging) when they have
/// not all returned within `timeout` — a deadlock shows up as a failure with the thread count.
@discardableResult
func runThreads(
    _ count: Int, timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        XCTFail("threads did not finish within \(timeout) s: deadlock?", file: file, line: line)
        return false
    }
    return true
}

/// Waits for `semaphore` at most `seconds`; fails the test (instead of hanging) when it is not signalled.
///
/// This is a watchdog, not a timing assertion: the limit is far above what the awaited work needs.
@discardableResult
func waitOrFail(
    _ semaphore: DispatchSemaphore, within seconds: TimeInterval = 30, _ what: @autoclosure () -> String,
    file: StaticString = #filePath, line: UInt = #line
) -> Bool {
    if semaphore.wait(timeout: .now() + seconds) == .timedOut {
        XCTFail("\(what()) did not happen within \(seconds) s: deadlock?", file: file, line: line)
        return false
    }
    return true
}

/// Runs `body` on a new thread and returns a semaphore signalled when it has returned.
@discardableResult
func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        finished.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return finished
}

/// A thread-safe flag.
final class StressFlag: Sendable {
    private let state = Atomic<Bool>(false)
    var isSet: Bool { state.load(ordering: .acquiring) }
    func set() { state.store(true, ordering: .releasing) }
}

/// A test case that checks, after every test, that ``ResourceCounter/total`` is back where it was
/// when the test started: everything the test's pipelines allocated was freed.
///
/// Work still in flight on other threads (a `QueueScheduler` action finishing) may release its
/// objects a moment after the test returns, so the check waits up to two seconds for the count to
/// come back before failing. Keep test state in locals, not in properties of the test case
/// (XCTest keeps test case instances alive for the whole run).
class ResourceCheckedTestCase: XCTestCase {
    private var resourcesAtStart = 0
    private var liveSubscriptionsReason: String?

    override func setUp() {
        super.setUp()
        resourcesAtStart = ResourceCounter.total
        liveSubscriptionsReason = nil
    }

    override func tearDown() {
        if liveSubscriptionsReason == nil { assertResourcesReturn(to: resourcesAtStart) }
        super.tearDown()
    }

    /// Skips this test's leak check: its subscriptions deliberately outlive it — an observer closure
    /// that captures its own subject or observed object (a reference cycle of the test's making), a
    /// source that keeps its observer forever, a timer on a `TestScheduler` that is never disposed.
    func expectLiveSubscriptions(_ reason: String) {
        liveSubscriptionsReason = reason
    }
}

/// Waits (up to `timeout`) for ``ResourceCounter/total`` to come back to `start`, and fails if it
/// does not. Does nothing when the library does not count (a release build).
func assertResourcesReturn(
    to start: Int, timeout: TimeInterval = 2, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard ResourceCounter.isEnabled else { return }
    let deadline = Date().addingTimeInterval(timeout)
    while ResourceCounter.total != start && Date() < deadline {
        usleep(1_000)
    }
    let leaked = ResourceCounter.total - start
    XCTAssertEqual(
        leaked, 0, "ResourceCounter: \(leaked) Tether object(s) still alive \(message())", file: file, line: line)
}

/// Problems found on worker threads, reported on the test thread.
final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    var entries: [String] { lock.withLock { Array(storage.prefix(10)) } }
    func add(_ problem: String) { lock.withLock { storage.append(problem) } }
}

/// Busy-waits for about `iterations` loop turns (no system call: `sched_yield` with many busy
/// threads on two cores can give the processor away for a whole time slice).
func spin(_ iterations: Int) {
    var sink = 0
    for index in 0..<iterations { sink &+= index }
    withExtendedLifetime(sink) {}
}

/// Waits (up to `timeout`) for `condition`, polling; fails if it never holds.
func waitUntil(
    timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline {
            XCTFail("condition not met within \(timeout) s", file: file, line: line)
            return
        }
        usleep(500)
    }
}

/// Carries a value that the test uses in the documented thread-safe way across threads.
final class ReliabilityBox<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}
