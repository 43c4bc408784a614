import Foundation

/// Two long-lived threads that run one closure each per round, released together (a thread per round
/// costs more than the race it runs).
package final class ThreadPair: @unchecked Sendable {
    // Safety: `work` is written by the test thread before the `go` semaphores are signalled and read by
    // the workers after their wait; the `done` semaphore orders the next write after their reads.
    private var work: [@Sendable () -> Void] = [{}, {}]
    private var stopping = false
    private let go = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    private let done = DispatchSemaphore(value: 0)

    package init() {
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
    package func run(_ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void) -> Bool {
        work = [first, second]
        go[0].signal()
        go[1].signal()
        return done.wait(timeout: .now() + 60) == .success && done.wait(timeout: .now() + 60) == .success
    }

    package func stop() {
        stopping = true
        go[0].signal()
        go[1].signal()
    }
}
