import Foundation
import Observable
import XCTest

/// A thread-safe list of events, for assertions.
final class EventLog<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Event<Value, Failure>] = []

    var events: [Event<Value, Failure>] { lock.withLock { storage } }
    var values: [Value] { events.compactMap(\.value) }
    var count: Int { lock.withLock { storage.count } }

    func append(_ event: Event<Value, Failure>) {
        lock.withLock { storage.append(event) }
    }
}

extension SignalConvertible {
    /// Subscribes and records every event.
    @discardableResult
    func record(into log: EventLog<Value, Failure>) -> any Disposable {
        subscribeEvents { log.append($0) }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment(by amount: Int = 1) { lock.withLock { count += amount } }
}

/// An object whose deallocation tests observe through a weak reference.
final class Tracked: @unchecked Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

struct TestError: Error, Equatable {
    let code: Int
    init(_ code: Int = 1) { self.code = code }
}

/// Fails when two calls overlap: detects concurrent delivery to one observer.
final class OverlapDetector: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private(set) var overlaps = 0

    func enter() {
        lock.withLock {
            if inside { overlaps += 1 }
            inside = true
        }
    }

    func leave() {
        lock.withLock { inside = false }
    }
}
