import Dispatch
import Foundation
import Synchronization

/// A flood: a background thread sending `total` values as fast as it can, counting what it sent — for the
/// tests of the backlog's bound, where a busy receiver must hold the sender back.
///
/// <!-- example: skip -->
/// ```swift
/// let flood = Flood(total: 50_000) { subject.send($0) }
/// let sent = flood.sentWhileBusy(forAtMost: 3)   // this thread busy: nothing it drains runs
/// XCTAssertLessThan(sent, flood.total)
/// ```
package final class Flood: Sendable {
    package let total: Int
    private let sentCount = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sending `0..<total` through `send` on a global queue's thread.
    package init(total: Int, _ send: @escaping @Sendable (Int) -> Void) {
        self.total = total
        DispatchQueue.global().async { [self] in
            for value in 0..<total {
                send(value)
                sentCount.add(1, ordering: .relaxed)
            }
            finished.signal()
        }
    }

    /// How many values were sent so far.
    package var sent: Int { sentCount.load(ordering: .relaxed) }

    /// Keeps the calling thread busy (it drains nothing: a main thread's queue waits) until every value was
    /// sent or `seconds` passed, and returns how many were sent. A watchdog, not a timing assertion: an
    /// unbounded sender finishes long before.
    package func sentWhileBusy(forAtMost seconds: TimeInterval) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while sent < total && Date() < deadline { usleep(1_000) }
        return sent
    }

    /// Waits (at most `seconds`) until the sender sent everything; whether it did.
    package func waitUntilFinished(within seconds: TimeInterval = 30) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }
}
