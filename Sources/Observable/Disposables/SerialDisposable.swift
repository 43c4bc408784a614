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
public final class SerialDisposable: Disposable, Sendable {
    struct State {
        var disposed = false
        var current: (any Disposable)?
    }

    /// The held disposable and whether this one was disposed. A replaced or held disposable is disposed,
    /// and released, after the lock is.
    let state: LockedState<State>

    /// Creates a serial disposable, optionally holding `inner`.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// ```
    public init(_ inner: (any Disposable)? = nil) {
        state = LockedState(State(current: inner))
    }

    /// Whether this disposable has been disposed.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.isDisposed
    /// ```
    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The disposable currently held. Setting it disposes the previous one (outside the lock).
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.inner = AnyDisposable { print("disposed") }
    /// ```
    public var inner: (any Disposable)? {
        get { state.withLock { $0.current } }
        set {
            // The one to dispose: the new one if this is disposed, else the one it replaces.
            let (old, disposed) = state.withLock { state -> ((any Disposable)?, Bool) in
                if state.disposed { return (nil, true) }
                let old = state.current
                state.current = newValue
                return (old, false)
            }
            if disposed {
                newValue?.dispose()
            } else if old !== newValue {
                old?.dispose()
            }
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
        let (old, disposed) = state.withLock { state -> ((any Disposable)?, Bool) in
            if state.disposed { return (nil, true) }
            let old = state.current
            state.current = newInner
            return (old, false)
        }
        if disposed { newInner?.dispose() }
        return old
    }

    /// Disposes the held disposable and every later one.
    ///
    /// ```swift
    /// let serial = SerialDisposable()
    /// serial.dispose()
    /// ```
    public func dispose() {
        let old = state.withLock { state -> (any Disposable)? in
            if state.disposed { return nil }
            state.disposed = true
            return state.current.take()
        }
        old?.dispose()
    }
}
