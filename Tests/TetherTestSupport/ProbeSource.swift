import Foundation
import Observable

/// A cold source for disposal tests and tests of multi-source operators: counts its subscriptions and
/// their disposals, and keeps the observer of its latest subscription so the test can drive it.
package final class ProbeSource<Value, Failure: Error>: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var observers: [Observer<Value, Failure>] = []
    private var subscribed = 0
    private var disposed = 0

    package var subscriptions: Int { lock.withLock { subscribed } }
    package var disposals: Int { lock.withLock { disposed } }
    package var observer: Observer<Value, Failure>? { lock.withLock { observers.last } }

    package var signal: Signal<Value, Failure> {
        Signal { observer in
            self.lock.withLock {
                self.subscribed += 1
                self.observers.append(observer)
            }
            return AnyDisposable { self.lock.withLock { self.disposed += 1 } }
        }
    }

    package func send(_ value: Value) { observer?.send(value) }
    package func sendError(_ failure: Failure) { observer?.sendError(failure) }
    package func sendCompleted() { observer?.sendCompleted() }
}
