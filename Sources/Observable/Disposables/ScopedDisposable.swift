import TetherEngine

/// Disposes the wrapped disposable when it is deinitialized (RAC's `-asScopedDisposable`).
///
/// Keep one in a property to tie a subscription to its owner's lifetime.
///
/// ```swift
/// let source = Signal<Int, Never>(values: [1, 2, 3])
/// final class ViewModel {
///     private var subscription: ScopedDisposable?
///     init(source: Subject<Int, Never>) {
///         subscription = ScopedDisposable(source.subscribe(next: { print($0) }))
///     }
/// }   // the subscription ends when the view model is released
/// ```
public final class ScopedDisposable: Disposable {
    /// The disposable that is disposed with this object.
    public let inner: any Disposable

    /// Wraps `inner`.
    ///
    /// ```swift
    /// let subscription = AnyDisposable { print("disposed") }
    /// let scoped = ScopedDisposable(subscription)
    /// ```
    public init(_ inner: any Disposable) {
        self.inner = inner
    }

    deinit {
        inner.dispose()
    }

    /// Whether the wrapped disposable has been disposed.
    ///
    /// ```swift
    /// let scoped = ScopedDisposable(AnyDisposable {})
    /// scoped.isDisposed
    /// ```
    public var isDisposed: Bool { inner.isDisposed }

    /// Disposes the wrapped disposable now.
    ///
    /// ```swift
    /// let scoped = ScopedDisposable(AnyDisposable {})
    /// scoped.dispose()
    /// ```
    public func dispose() {
        inner.dispose()
    }
}

extension Disposable {
    /// Wraps this disposable in a ``ScopedDisposable`` that disposes it on deinit.
    ///
    /// ```swift
    /// final class Screen {
    ///     var bag: ScopedDisposable?
    ///     init(_ subject: Subject<Int, Never>) {
    ///         self.bag = subject.subscribe(next: { print($0) }).scoped()   // (ends with the screen)
    ///     }
    /// }
    /// ```
    public func scoped() -> ScopedDisposable {
        ScopedDisposable(self)
    }

    /// Adds this disposable to `composite` (a convenience for collecting subscriptions).
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// let bag = CompositeDisposable()
    /// subject.subscribe(next: { print($0) }).disposed(by: bag)
    /// ```
    public func disposed(by composite: CompositeDisposable) {
        composite.add(self)
    }
}
