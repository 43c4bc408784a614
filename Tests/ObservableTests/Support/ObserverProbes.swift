import Foundation
import Observable

/// Exposes the observer of a created signal to the test.
final class EventObserverHolder<Value>: @unchecked Sendable {
    var observer: Observer<Value, Never>?
}

/// Keeps observers alive (an observer nobody holds ends its subscription).
final class ObserverKeeper: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [AnyObject] = []
    func keep(_ observer: AnyObject) { lock.withLock { kept.append(observer) } }
}

/// A source that counts its subscriptions and disposals and exposes its observer.
final class SubscriptionProbe: @unchecked Sendable {
    let subscriptions = Counter()
    let disposals = Counter()
    private let lock = NSLock()
    private var current: Observer<Int, TestError>?
    var observer: Observer<Int, TestError>? { lock.withLock { current } }

    var signal: Signal<Int, TestError> {
        Signal { observer in
            self.subscriptions.increment()
            self.lock.withLock { self.current = observer }
            return AnyDisposable { self.disposals.increment() }
        }
    }
}
