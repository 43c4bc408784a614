import Foundation
import Observable

/// Exposes the observer of a created signal to the test.
package final class EventObserverHolder<Value>: @unchecked Sendable {
    package init() {}

    package var observer: Observer<Value, Never>?
}

/// Keeps observers alive (an observer nobody holds ends its subscription).
package final class ObserverKeeper: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var kept: [AnyObject] = []
    package func keep(_ observer: AnyObject) { lock.withLock { kept.append(observer) } }
}

/// A source that counts its subscriptions and disposals and exposes its observer.
package final class SubscriptionProbe: @unchecked Sendable {
    package init() {}

    package let subscriptions = Counter()
    package let disposals = Counter()
    private let lock = NSLock()
    private var current: Observer<Int, TestError>?
    package var observer: Observer<Int, TestError>? { lock.withLock { current } }

    package var signal: Signal<Int, TestError> {
        Signal { observer in
            self.subscriptions.increment()
            self.lock.withLock { self.current = observer }
            return AnyDisposable { self.disposals.increment() }
        }
    }
}
