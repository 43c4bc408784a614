import TetherEngine

/// One inner signal's subscription in a ``FlattenDriver``: the inner's id, for its events and for the
/// notice that its subscription ended.
///
/// One object per inner (reused for the next inner once nothing references it), and the two closures made from it — the inner's sink and the end notice in the
/// inner's lifetime — capture nothing else, so they use it as their context: no other allocation per inner.
/// Both closures are made in specialized code, so calling them runs specialized code. (The end notice was
/// a generic `Disposable`: reached through its protocol witness, it ran the unspecialized generic code,
/// with generic-metadata lookups on every inner.)
@usableFromInline
final class FlattenInnerLink<OuterValue, Inner: SignalConvertible, State: FlattenStateMachine>
where State.Inner == Inner, State.Subscription == CompositeDisposable {
    // Not `Sendable`: it travels between threads only inside the inner's sink and lifetime, which the
    // driver's gate serializes. `id` changes only while the driver holds the only reference (it reuses the
    // link of an inner that has ended, see `FlattenDriver.spareLink`).
    @usableFromInline let driver: FlattenDriver<OuterValue, Inner, State>
    @usableFromInline @exclusivity(unchecked) var id: UInt64

    @inlinable
    init(_ driver: FlattenDriver<OuterValue, Inner, State>, id: UInt64) {
        self.driver = driver
        self.id = id
    }

    /// The inner sent `event`. Small enough to be inlined into the inner sink's reabstraction thunk, which
    /// receives the event in memory: the tag is then read there one byte wide, as the sender stored it. (Passed
    /// on to a function taking the event in registers, the tag was loaded four bytes wide: a load wider than
    /// the store it reads cannot be forwarded from the store buffer, and stalled every value.)
    @inlinable @inline(__always)
    func send(_ event: Event<Inner.Value, Inner.Failure>) {
        if case .next(let value) = event {
            driver.innerSent(value: value, from: id)
        } else {
            driver.innerSent(event, from: id)
        }
    }

    /// The inner's subscription ended (after its terminal event, or without one).
    @inlinable @inline(__always)
    func subscriptionEnded() {
        driver.innerWentAway(id)
    }

    /// ``subscriptionEnded()`` as the closure the inner's lifetime runs when it is disposed (added with
    /// `CompositeDisposable.addUnchecked(_:)`: the closure captures only this object, which is `Sendable`; the
    /// compiler objects to the generic parameters' metatypes it carries along for the call, which is the
    /// driver's own code, already reached from any thread by the inner's sink).
    @inlinable @inline(__always)
    var endNotice: () -> Void {
        { self.subscriptionEnded() }
    }
}
