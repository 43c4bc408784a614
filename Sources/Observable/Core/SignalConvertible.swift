import TetherEngine

/// Anything that can be observed as a ``Signal``: signals themselves, the subjects, properties.
///
/// Every operator is declared on this protocol and returns a concrete `Signal`, so operators apply
/// to subjects and properties directly, and every parameter that takes a signal takes any of them.
///
/// ```swift
/// let subject = Subject<Int, Never>()
/// subject.map { $0 * 2 }.subscribe(next: { print($0) })
/// subject.send(21)   // prints 42
/// ```
public protocol SignalConvertible<Value, Failure> {
    /// The type of the values sent.
    associatedtype Value
    /// The type of failure; `Never` for signals that cannot fail.
    associatedtype Failure: Error

    /// This source as a ``Signal``.
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// let s: Signal<Int, Never> = subject.signal
    /// ```
    var signal: Signal<Value, Failure> { get }
}

/// Anything that receives events: an ``Observer`` or a subject (RAC's `RACSubscriber`).
///
/// ```swift
/// let relay = Subject<Int, Never>()
/// Signal(values: [1, 2]).subscribe(relay)   // relay sends 1, 2, then completes
/// ```
public protocol ObserverProtocol<Value, Failure>: AnyObject {
    /// The type of the values received.
    associatedtype Value
    /// The type of failure received.
    associatedtype Failure: Error

    /// Receives one event.
    ///
    /// ```swift
    /// let observer = Subject<Int, Never>()
    /// observer.send(event: .next(1))
    /// ```
    func send(event: Event<Value, Failure>)

    /// Called once for each subscription made with this observer by
    /// ``SignalConvertible/subscribe(_:isolation:)``, before the subscription starts, with the disposable that ends it
    /// (RAC's `-didSubscribeWithDisposable:`). The default does nothing; an observer of your own can keep
    /// the disposable, to end its subscriptions itself. Disposing it here means the observer receives
    /// nothing from that subscription.
    ///
    /// ```swift
    /// final class FirstOnly: ObserverProtocol {
    ///     private var subscription: (any Disposable)?
    ///     func didSubscribe(with subscription: any Disposable) { self.subscription = subscription }
    ///     func send(event: Event<Int, Never>) {
    ///         print(event)
    ///         subscription?.dispose()   // one event is enough
    ///     }
    /// }
    /// Signal(values: [1, 2, 3]).subscribe(FirstOnly())   // prints next(1) — only
    /// ```
    func didSubscribe(with subscription: any Disposable)
}

extension ObserverProtocol {
    /// Does nothing: observers that do not track their subscriptions need not implement
    /// ``ObserverProtocol/didSubscribe(with:)``.
    ///
    /// ```swift
    /// let relay = Subject<Int, Never>()
    /// relay.didSubscribe(with: AnyDisposable())   // no effect
    /// ```
    @inlinable
    public func didSubscribe(with subscription: any Disposable) {}
}

/// A subscriber that collects the subscriptions made with it (RAC's `didSubscribeWithDisposable:`):
/// ``Observer`` and the subjects.
///
/// Such a subscriber is held by someone else (the recipe or the caller keeps an observer; the caller
/// keeps a subject), so a subscription made with it lives as long as the subscriber does: it ends on its
/// own terminal event, on `dispose()`, or when the subscriber terminates or goes away — and a
/// subscription made with a subscriber that has already terminated is disposed at once.
@usableFromInline
protocol SubscriptionCollecting: AnyObject {
    /// Takes `subscription` into the subscriber's own lifetime (or disposes it at once if the subscriber
    /// has terminated).
    func collect(_ subscription: CompositeDisposable)
}

extension ObserverProtocol {
    /// Sends a value (RAC's `sendNext:`).
    ///
    /// ```swift
    /// let observer = Subject<Int, Never>()
    /// observer.send(42)
    /// ```
    @inlinable
    public func send(_ value: Value) {
        send(event: .next(value))
    }

    /// Sends a failure; nothing is sent after it (RAC's `sendError:`).
    ///
    /// ```swift
    /// enum NetworkError: Error { case timedOut }
    /// let observer = Subject<Int, NetworkError>()
    /// observer.sendError(.timedOut)
    /// ```
    @inlinable
    public func sendError(_ error: Failure) {
        send(event: .error(error))
    }

    /// Sends completion; nothing is sent after it (RAC's `sendCompleted`).
    ///
    /// ```swift
    /// let observer = Subject<Int, Never>()
    /// observer.sendCompleted()
    /// ```
    @inlinable
    public func sendCompleted() {
        send(event: .completed)
    }
}

extension ObserverProtocol where Value == Void {
    /// Sends `()`.
    ///
    /// ```swift
    /// let tapped = Subject<Void, Never>()
    /// tapped.send()
    /// ```
    @inlinable
    public func send() {
        send(event: .next(()))
    }
}

/// An observer that Tether may call on any thread: its own thread-safe receivers (``Observer``, the
/// subjects, channel terminals). `subscribe(_:)` delivers to them where the events are sent; an observer
/// of the caller's own, subscribed from actor-isolated code, gets its events on that actor instead.
@usableFromInline
package protocol DeliversOnAnyThread: AnyObject {}
