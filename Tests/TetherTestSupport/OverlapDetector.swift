import Foundation

/// Counts overlapping calls: detects concurrent delivery to one observer (call `enter()` first thing in
/// the callback and `leave()` last).
package final class OverlapDetector: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private var count = 0

    package init() {}

    package var overlaps: Int { lock.withLock { count } }

    package func enter() {
        lock.withLock {
            if inside { count += 1 }
            inside = true
        }
    }

    package func leave() {
        lock.withLock { inside = false }
    }
}
