import Foundation
import Synchronization
import XCTest

// Lock-step races between threads, for the issue 14 regression tests (the rest of their support,
// `waitOrFail` and `startThread` included, is in Threads.swift).

/// State shared by the test thread and the worker threads of `runLockstepRounds`.
///
/// `state`, `round` and `stopped` are written by the test thread before it signals `go`, and read by the
/// workers after `go`: the semaphores order them.
private final class LockstepControl<State>: @unchecked Sendable {
    let go: [DispatchSemaphore]
    let done = DispatchSemaphore(value: 0)
    let arrived = Atomic<Int>(0)
    var state: State?
    var round = 0
    var stopped = false

    init(threads: Int) {
        go = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    }
}

/// Runs `rounds` races between `threads` long-lived threads.
///
/// Before each round, `prepare(round)` builds the round's state on the calling thread; then every worker
/// runs `body(index, state)`. The workers are released together and meet at a spinning barrier right
/// before `body`, so they are inside it at the same moment far more often than threads started one by
/// one. After all of them returned, `check(state)` runs on the calling thread.
///
/// A round whose workers have not all returned within `timeout` fails the test (a deadlock) and ends the
/// run: the stuck workers are abandoned, the others exit. Returns whether every round finished.
@discardableResult
package func runLockstepRounds<State>(
    threads: Int, rounds: Int, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line,
    prepare: (Int) -> State,
    body: @escaping @Sendable (Int, State) -> Void,
    check: (State) -> Void = { _ in }
) -> Bool {
    let control = LockstepControl<State>(threads: threads)
    for index in 0..<threads {
        let thread = Thread {
            while true {
                control.go[index].wait()
                if control.stopped { return }
                guard let state = control.state else { return }
                // The barrier: spin (no system call) until every worker of this round has arrived, but
                // never more than a few milliseconds — a late worker only makes the race less likely.
                let target = (control.round + 1) * threads
                control.arrived.add(1, ordering: .acquiringAndReleasing)
                var turns = 0
                while control.arrived.load(ordering: .acquiring) < target && turns < 200_000 { turns += 1 }
                body(index, state)
                control.done.signal()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    defer {
        control.stopped = true
        control.state = nil
        for semaphore in control.go { semaphore.signal() }
    }
    for round in 0..<rounds {
        control.state = prepare(round)
        control.round = round
        for semaphore in control.go { semaphore.signal() }
        let deadline = DispatchTime.now() + timeout
        for returned in 0..<threads {
            if control.done.wait(timeout: deadline) == .timedOut {
                XCTFail(
                    "round \(round + 1) of \(rounds): \(threads - returned) of \(threads) threads did not return "
                        + "within \(timeout) s: deadlock?", file: file, line: line)
                return false
            }
        }
        if let state = control.state { check(state) }
    }
    return true
}
