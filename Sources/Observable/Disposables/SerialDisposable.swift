import TetherEngine

/// Holds one disposable at a time; replacing it disposes the previous one (RAC's
/// `RACSerialDisposable`). Once disposed, any new inner disposable is disposed at once.
///
/// ```swift
/// func search(_ text: String) -> Signal<[String], Never> { Signal(value: [text]) }
/// let current = SerialDisposable()
/// current.inner = search("a").subscribe(next: { print($0) })    // ["a"]
/// current.inner = search("ab").subscribe(next: { print($0) })   // ["ab"] — the "a" search is cancelled
/// ```
public final class SerialDisposable: Disposable, @unchecked Sendable {
    // Safety: `disposed` and `current` are guarded by `lock`; the replaced or current disposable is disposed
    // after the lock is released.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var disposed = false
    @usableFromInline @exclusivity(unchecked) var current: (any Disposable)?

    /// Creates a serial disposable, optionally holding `inner`.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// ```
    public init(_ inner: (any Disposable)? = nil) {
        current = inner
    }

    /// Whether this disposable has been disposed.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.isDisposed
    /// ```
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The disposable currently held. Setting it disposes the previous one (outside the lock).
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.inner = AnyDisposable { print("disposed") }
    /// ```
    public var inner: (any Disposable)? {
        get { lock.withLock { current } }
        set {
            lock.lock()
            if disposed {
                lock.unlock()
                newValue?.dispose()
                return
            }
            let old = current
            current = newValue
            lock.unlock()
            if old !== newValue { old?.dispose() }
        }
    }

    /// Replaces the held disposable with `newInner` and returns the previous one *without* disposing it
    /// (RAC's `swapInDisposable:`): the caller now owns it. If this serial disposable is already disposed,
    /// `newInner` is disposed at once and `nil` is returned.
    ///
    /// ```swift
    /// let serial = SerialDisposable(AnyDisposable { print("first disposed") })
    /// let first = serial.swap(AnyDisposable { print("second disposed") })
    /// print(first?.isDisposed == true)   // false — swapping out does not dispose
    /// serial.dispose()                   // prints second disposed
    /// ```
    @discardableResult
    public func swap(_ newInner: (any Disposable)?) -> (any Disposable)? {
        lock.lock()
        if disposed {
            lock.unlock()
            newInner?.dispose()
            return nil
        }
        let old = current
        current = newInner
        lock.unlock()
        return old
    }

    /// Disposes the held disposable and every later one.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.dispose()
    /// ```
    public func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let old = current
        current = nil
        lock.unlock()
        old?.dispose()
    }
}
