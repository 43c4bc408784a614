import Dispatch
import Foundation

/// Runs `body(index)` on `count` new threads, started together once all exist, and waits for them all
/// (60 s at most): whether they finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            group.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + 60) == .success
}
