import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// `take(until:)` whose source sends and completes on one thread while its trigger fires on another:
/// whichever wins, the subscriber receives exactly one `completed` (issue 30, bug 5: the source's own
/// disposal after its completion closed the operator's mailbox, dropping the queued completion, and
/// made the trigger's completion look like one sent after the end).
final class TakeUntilTerminalEventRaceTests: ResourceCheckedTestCase {
    func testSourceCompletingWhileTheTriggerFiresOnAnotherThreadSendsExactlyOneCompletion() {
        let rounds = StressScale.scaled(40_000)
        let pair = ThreadPair()
        defer { pair.stop() }
        var missing = 0
        for _ in 0..<rounds {
            let source = Subject<Int, Never>()
            let trigger = Subject<Void, Never>()
            let completions = Atomic<Int>(0)
            let subscription = source.signal.take(until: trigger).subscribe(
                next: { _ in }, completed: { completions.wrappingAdd(1, ordering: .relaxed) })
            guard
                pair.run(
                    {
                        source.send(1)
                        source.sendCompleted()
                    },
                    { trigger.send(()) })
            else { return XCTFail("the two threads did not finish: deadlock?") }
            let count = completions.load(ordering: .relaxed)
            XCTAssertLessThanOrEqual(count, 1, "completed twice")
            if count == 0 { missing += 1 }
            XCTAssertTrue(subscription.isDisposed)
            subscription.dispose()
        }
        XCTAssertEqual(missing, 0, "rounds that ended without a terminal event, of \(rounds)")
    }
}

/// Two long-lived threads that run one closure each per round, released together (a thread per round
/// costs more than the race it runs).
final class ThreadPair: @unchecked Sendable {
    // Safety: `work` is written by the test thread before the `go` semaphores are signalled and read by
    // the workers after their wait; the `done` semaphore orders the next write after their reads.
    private var work: [@Sendable () -> Void] = [{}, {}]
    private var stopping = false
    private let go = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    private let done = DispatchSemaphore(value: 0)

    init() {
        for index in 0..<2 {
            let thread = Thread { [self] in
                while true {
                    go[index].wait()
                    if stopping { return }
                    work[index]()
                    done.signal()
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `first` and `second` on the two threads at once; `false` if they did not both return within
    /// a watchdog's limit.
    func run(_ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void) -> Bool {
        work = [first, second]
        go[0].signal()
        go[1].signal()
        return done.wait(timeout: .now() + 60) == .success && done.wait(timeout: .now() + 60) == .success
    }

    func stop() {
        stopping = true
        go[0].signal()
        go[1].signal()
    }
}
