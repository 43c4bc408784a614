import TetherEngine

/// The one inner signal a ``SwitchToLatestState`` or ``ConcatState`` forwards at a time: its id and
/// its subscription, and the id of the next one.
@usableFromInline
struct FlattenCurrentInner<Subscription> {
    /// Set exactly when `subscription` is (two fields rather than an optional tuple: reading the id
    /// then copies no reference).
    @usableFromInline var id: UInt64?
    @usableFromInline var subscription: Subscription?
    @usableFromInline var nextID: UInt64 = 0

    @inlinable
    init() {}

    /// Whether no inner is current.
    @inlinable @inline(__always)
    var isEmpty: Bool { id == nil }

    @inlinable @inline(__always)
    func isCurrent(_ id: UInt64) -> Bool { self.id == id }

    /// Makes the inner subscribed in `subscription` current; returns its new id.
    @inlinable @inline(__always)
    mutating func start(_ subscription: Subscription) -> UInt64 {
        let id = nextID
        nextID &+= 1
        self.id = id
        self.subscription = subscription
        return id
    }

    /// Forgets the current inner; returns its subscription.
    @inlinable @inline(__always)
    @discardableResult
    mutating func end() -> Subscription? {
        let ended = subscription
        id = nil
        subscription = nil
        return ended
    }

    /// The subscription of the inner `id` if it is current.
    @inlinable
    func subscription(of id: UInt64) -> Subscription? {
        isCurrent(id) ? subscription : nil
    }
}
