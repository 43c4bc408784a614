/// Tells a ``FlattenDriver`` that the outer source's (`inner == nil`) or an inner signal's
/// subscription ended. A `Disposable` rather than a closure: a closure would capture `Inner`'s metatype,
/// which is not `Sendable`.
@usableFromInline
final class FlattenEndNotice<OuterValue, Inner: SignalConvertible, State: FlattenStateMachine>: Disposable,
    @unchecked Sendable
where State.Inner == Inner, State.Subscription == CompositeDisposable {
    // Safety: immutable; the driver is thread-safe to post into.
    @usableFromInline let driver: FlattenDriver<OuterValue, Inner, State>
    @usableFromInline let inner: UInt64?

    @inlinable
    init(_ driver: FlattenDriver<OuterValue, Inner, State>, inner: UInt64?) {
        self.driver = driver
        self.inner = inner
    }

    @usableFromInline var isDisposed: Bool { driver.isDisposed }

    @inlinable
    func dispose() {
        if let inner {
            driver.innerWentAway(inner)
        } else {
            driver.outerWentAway()
        }
    }
}
