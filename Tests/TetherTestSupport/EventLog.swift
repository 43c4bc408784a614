import Foundation
import Observable
import XCTest

/// A thread-safe list of events, for assertions; `expectation(count:)` waits for events that arrive on
/// other threads. (For events on virtual time, use the library's `TestRecorder`.)
package final class EventLog<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Event<Value, Failure>] = []
    private var waiters: [(count: Int, expectation: XCTestExpectation)] = []

    package init() {}

    package var events: [Event<Value, Failure>] { lock.withLock { storage } }
    package var values: [Value] { events.compactMap(\.value) }
    package var count: Int { lock.withLock { storage.count } }
    package var isTerminated: Bool { events.last?.isTerminal ?? false }

    package func append(_ event: Event<Value, Failure>) {
        let fulfilled = lock.withLock { () -> [XCTestExpectation] in
            storage.append(event)
            let ready = waiters.filter { $0.count <= storage.count }.map(\.expectation)
            waiters.removeAll { $0.count <= storage.count }
            return ready
        }
        for expectation in fulfilled { expectation.fulfill() }
    }

    /// An expectation fulfilled once at least `count` events were recorded.
    package func expectation(count: Int, _ description: String = "events") -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "\(description): \(count)")
        let already = lock.withLock { () -> Bool in
            if storage.count >= count { return true }
            waiters.append((count, expectation))
            return false
        }
        if already { expectation.fulfill() }
        return expectation
    }
}

extension SignalConvertible {
    /// Subscribes and records every event.
    @discardableResult
    package func record(into log: EventLog<Value, Failure>) -> any Disposable {
        subscribeEvents { log.append($0) }
    }
}
