import Foundation
import XCTest

// Watchdogs: each turns a hang (a deadlock) into a test failure instead of a stuck run. They are not
// timing assertions: their limits are far above what the awaited work needs.

/// Runs `body` on `count` threads released together, and fails (instead of hanging) when they have
/// not all returned within `timeout` — a deadlock shows up as a failure with the thread count.
@discardableResult
package func runThreads(
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
package func waitOrFail(
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
package func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        finished.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return finished
}

/// Busy-waits for about `iterations` loop turns (no system call: `sched_yield` with many busy
/// threads on two cores can give the processor away for a whole time slice).
package func spin(_ iterations: Int) {
    var sink = 0
    for index in 0..<iterations { sink &+= index }
    withExtendedLifetime(sink) {}
}

/// Waits (up to `timeout`) for `condition`, polling; fails if it never holds.
package func waitUntil(
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

/// Holds the producing threads of a stress test until every churning thread is under way, so that the two
/// overlap even on a loaded machine: released together, a few threads on two busy cores can let the
/// producers finish before a churner ran at all, and the test then checks nothing.
///
/// Each churner calls ``arrive()`` once, right after it has set up its first round (subscribed); each
/// producer calls ``wait()`` before it starts.
package final class ChurnersReady: Sendable {
    private let group = DispatchGroup()

    /// A gate for `churners` churning threads.
    package init(churners: Int) {
        for _ in 0..<churners { group.enter() }
    }

    /// A churner is under way (call it once per churner).
    package func arrive() { group.leave() }

    /// Waits until every churner has arrived (a watchdog turns a churner that never arrives into a failure).
    package func wait(file: StaticString = #filePath, line: UInt = #line) {
        if group.wait(timeout: .now() + 60) == .timedOut {
            XCTFail("the churning threads did not start within 60 s", file: file, line: line)
        }
    }
}
