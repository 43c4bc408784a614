import Foundation

/// Problems found on worker threads, reported on the test thread.
package final class ProblemLog: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var storage: [String] = []
    package var entries: [String] { lock.withLock { Array(storage.prefix(10)) } }
    package func add(_ problem: String) { lock.withLock { storage.append(problem) } }
}
