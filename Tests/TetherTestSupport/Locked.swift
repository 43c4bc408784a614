import Foundation

/// A value behind a lock, for test closures that run on other threads.
///
/// The lock is an `NSLock` (a pthread mutex), which Thread Sanitizer understands: `Synchronization.Mutex`
/// is a futex it does not see, so handing values through one is reported as a race (LINUX-NOTES).
///
/// A `package` type, which the examples checker (public API only) cannot see:
/// <!-- example: skip -->
/// ```swift
/// let seen = Locked<[Int]>([])
/// DispatchQueue.global().async { seen.append(1) }
/// let last = Locked<(any Disposable)?>(nil)
/// last.value = subscription
/// let pending = last.exchange(nil)
/// ```
package final class Locked<Value>: @unchecked Sendable {
    // Safety: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    /// The value (a copy, read under the lock); setting replaces it under the lock.
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` on the value under the lock and returns its result.
    @discardableResult
    package func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }

    /// Replaces the value and returns the one it replaced, in one step.
    package func exchange(_ newValue: Value) -> Value {
        lock.withLock {
            let old = stored
            stored = newValue
            return old
        }
    }
}

extension Locked where Value: RangeReplaceableCollection {
    /// The elements (a copy).
    package var values: Value { value }

    /// Appends `element` under the lock.
    package func append(_ element: Value.Element) {
        mutate { $0.append(element) }
    }
}
