import Foundation

/// A thread-safe counter.
package final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    package init() {}

    package var value: Int { lock.withLock { count } }
    package func increment(by amount: Int = 1) { lock.withLock { count += amount } }
}
