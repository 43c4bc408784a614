import TetherEngine

/// A disposable that runs a closure once, the first time it is disposed (RAC's
/// `+[RACDisposable disposableWithBlock:]`).
///
/// ```swift
/// let timer = AnyDisposable { print("cancelled") }
/// timer.dispose()   // prints cancelled
/// timer.dispose()   // prints nothing: disposing is idempotent
/// ```
public final class AnyDisposable: Disposable, @unchecked Sendable {
    // Safety: the action is read and cleared only by the thread that wins `state`'s exchange.
    @usableFromInline @exclusivity(unchecked) var action: (@Sendable () -> Void)?
    @usableFromInline let state = AtomicFlag()

    /// Creates a disposable that runs `action` when first disposed.
    ///
    /// ```swift
    /// let task = Task { try await Task.sleep(for: .seconds(10)) }
    /// let d = AnyDisposable { task.cancel() }
    /// ```
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Creates a disposable with nothing to do, useful as a placeholder or a flag.
    ///
    /// ```swift
    /// let flag = AnyDisposable()
    /// flag.dispose()
    /// print(flag.isDisposed)   // true
    /// ```
    public init() {
        self.action = nil
    }

    /// Whether this disposable has been disposed.
    ///
    /// ```swift
    /// print(AnyDisposable().isDisposed)   // false
    /// ```
    public var isDisposed: Bool { state.isSet }

    /// Runs the action if this is the first call.
    ///
    /// ```swift
    /// let d = AnyDisposable { print("disposed") }
    /// d.dispose()
    /// ```
    public func dispose() {
        guard state.raise() else { return }
        let action = self.action
        self.action = nil
        action?()
    }
}

/// A disposable that is already disposed; returned where there is nothing to cancel.
@usableFromInline
final class DisposedDisposable: Disposable {
    @usableFromInline static let shared = DisposedDisposable()
    @usableFromInline var isDisposed: Bool { true }
    @usableFromInline func dispose() {}
}
