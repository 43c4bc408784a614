import Foundation
import Observable
import XCTest

/// A cold source for tests of multi-source operators: counts its subscriptions and their disposals,
/// and keeps the observer of its latest subscription so the test can drive it.
final class SourceProbe<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [Observer<Value, Failure>] = []
    private var subscribeCount = 0
    private var disposeCount = 0

    var subscriptions: Int { lock.withLock { subscribeCount } }
    var disposals: Int { lock.withLock { disposeCount } }
    var observer: Observer<Value, Failure>? { lock.withLock { observers.last } }

    var signal: Signal<Value, Failure> {
        Signal { observer in
            self.lock.withLock {
                self.subscribeCount += 1
                self.observers.append(observer)
            }
            return AnyDisposable { self.lock.withLock { self.disposeCount += 1 } }
        }
    }

    func send(_ value: Value) { observer?.send(value) }
    func sendCompleted() { observer?.sendCompleted() }
    func sendError(_ error: Failure) { observer?.sendError(error) }
}

/// Carries a non-`Sendable` value (a `Signal`, a connection) into concurrent test code that uses it
/// the way the library documents as thread-safe.
final class UncheckedBox<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}

/// Runs `body` on `count` threads at once (released together by a barrier) and waits for all.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
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
    group.wait()
}
