import TetherEngine

/// Shares one subscription to a source signal among many subscribers (RAC's `RACMulticastConnection`).
///
/// Made by ``SignalConvertible/publish()`` or ``SignalConvertible/multicast(_:)``. Subscribers of
/// ``signal`` subscribe to the connection's subject; nothing reaches them until ``connect()``
/// subscribes the subject to the source — once, however often or from however many threads it is
/// called. Disposing the disposable that `connect()` returns ends the source subscription; it is not
/// made again (as in RAC). Subscribers are not told: the subject simply stops receiving.
///
/// The connection stays connected as long as its source runs, whether or not you keep the
/// connection object; releasing the connection, its `signal` or its subscriptions, in any order,
/// ends nothing by itself.
///
/// ```swift
/// let expensiveRequest = Signal<Int, Never> { observer in print("requesting"); observer.send(42); return nil }
/// let connection = expensiveRequest.publish()
/// connection.signal.subscribe(next: { print("A got", $0) })
/// connection.signal.subscribe(next: { print("B got", $0) })
/// connection.connect()   // the request runs once; A and B both receive its values
/// ```
///
/// `connect()` and ``autoconnect()``'s subscriptions are safe from any thread. The class is not
/// `Sendable`, like ``Signal``: it holds the source's recipe, which runs on the thread that connects.
public final class MulticastConnection<Value, Failure: Error> {
    /// The shared signal: subscriptions to it receive what the subject receives from the source
    /// once connected (and, for a replay subject, what it buffered before).
    ///
    /// ```swift
    /// let connection = Signal<Int, Never>(values: [1, 2, 3]).publish()
    /// connection.signal.subscribe(next: { print($0) })
    /// ```
    public let signal: Signal<Value, Failure>

    /// Subscribes the subject to the source, in the given lifetime.
    @usableFromInline let startSource: (CompositeDisposable) -> Void
    /// The source subscription's lifetime, returned by every `connect()`.
    @usableFromInline let connection = CompositeDisposable()
    @usableFromInline let hasConnected = AtomicFlag()

    @inlinable
    init<Subject: SignalConvertible & ObserverProtocol>(source: Signal<Value, Failure>, subject: Subject)
    where Subject.Value == Value, Subject.Failure == Failure {
        signal = subject.signal
        // Captures the subject, never the connection: releasing the connection object ends nothing.
        startSource = { lifetime in
            source.start(Sink { subject.send(event: $0) }, in: lifetime)
        }
    }

    /// Whether ``connect()`` has been called (the source may have terminated since, or the
    /// connection been disposed).
    ///
    /// ```swift
    /// let connection = Signal<Int, Never>(values: [1, 2, 3]).publish()
    /// if !connection.isConnected { connection.connect() }
    /// ```
    public var isConnected: Bool { hasConnected.isSet }

    /// Subscribes the subject to the source, the first time it is called; later calls (from any
    /// thread) do nothing. Every call returns the same disposable, which ends the source subscription.
    ///
    /// No lock is held while the source's recipe runs: a concurrent `connect()` returns at once,
    /// possibly before the source has sent anything.
    ///
    /// ```swift
    /// let ticks = Signal<Int, Never>.interval(.seconds(1), on: QueueScheduler.main)
    /// let connection = ticks.publish()
    /// connection.signal.subscribe(next: { print($0) })
    /// let running = connection.connect()
    /// running.dispose()   // stops the shared subscription
    /// ```
    @discardableResult
    public func connect() -> any Disposable {
        if hasConnected.raise() {
            startSource(connection)
        }
        return connection
    }

    /// A signal that connects on its first subscription, and disposes the connection when its
    /// number of subscribers drops back to zero (RAC's `autoconnect`).
    ///
    /// As in RAC 2.5, it never reconnects: once the connection was disposed, later subscribers only
    /// receive what the subject still gives them (the buffer of a replay subject; a terminal event a
    /// subject already received; otherwise nothing).
    ///
    /// ```swift
    /// let location = Subject<String, Never>()
    /// let shared = location.publish().autoconnect()
    /// let a = shared.subscribe(next: { print("A", $0) })   // (connects)
    /// let b = shared.subscribe(next: { print("B", $0) })
    /// a.dispose(); b.dispose()                              // (disconnects)
    /// ```
    /// Marble: source `-1-2-3-4-`; A subscribes at 1, B at 2, both leave after 3 →
    /// A `-1-2-3|`, B `---2-3|` (disposed), source subscribed from 1 to 3 only.
    public func autoconnect() -> Signal<Value, Failure> {
        let subscribers = LockedState(0)
        let connection = self.connection
        let shared = signal
        return Signal(unsafeStart: { sink, lifetime in
            subscribers.withLock { $0 += 1 }
            lifetime.add(
                AnyDisposable {
                    let remaining = subscribers.withLock { count in
                        count -= 1
                        return count
                    }
                    if remaining == 0 { connection.dispose() }
                })
            shared.start(sink, in: lifetime)
            self.connect()
        })
    }
}

extension SignalConvertible {
    /// Shares this signal through a ``Subject`` (RAC's `publish`): subscribers of the connection's
    /// `signal` receive what the source sends after they subscribe, once it is connected.
    ///
    /// ```swift
    /// let search = Signal<[String], Never>(value: ["Swift", "Linux"])
    /// let connection = search.publish()
    /// connection.signal.map(\.count).subscribe(next: { print("results:", $0) })
    /// connection.signal.subscribe(next: { print($0) })
    /// connection.connect()   // one search, two subscribers
    /// ```
    /// Marble (subscriber joining late): source `-1-2-3-|`, connected at once → late subscriber `---2-3-|`
    public func publish() -> MulticastConnection<Value, Failure> {
        multicast(Subject())
    }

    /// Shares this signal through `subject` (RAC's `multicast:`): the connection's `signal` is the
    /// subject's, and ``MulticastConnection/connect()`` subscribes the subject to this signal.
    ///
    /// ```swift
    /// let prices = Subject<Double, Never>()
    /// let connection = prices.multicast(ReplaySubject(capacity: 10))
    /// connection.connect()
    /// connection.signal.subscribe(next: { print($0) })   // (the last 10 prices, then new ones)
    /// ```
    /// Marble: source `-1-2-3-|` into a `ReplaySubject` → subscriber after 2: `(12)-3-|`
    @inlinable
    public func multicast<Subject: SignalConvertible & ObserverProtocol>(
        _ subject: Subject
    ) -> MulticastConnection<Value, Failure> where Subject.Value == Value, Subject.Failure == Failure {
        MulticastConnection(source: signal, subject: subject)
    }
}
