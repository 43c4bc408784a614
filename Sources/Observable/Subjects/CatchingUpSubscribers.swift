import TetherEngine

/// The subscribers of a source that are catching up on joining (``JoinCatchUp``), by entry: a few at most,
/// usually none. Guarded by the source's lock; the source also keeps a ``CatchUpCount`` of them, which the
/// owner reads without the lock to skip looking while there are none.
///
/// Kept beside the entries rather than in them, so that an entry holds nothing that changes while it is
/// subscribed (and stays small).
@usableFromInline
struct CatchingUpSubscribers<Value, Failure: Error> {
    @usableFromInline var links: [(entry: ObjectIdentifier, catchUp: JoinCatchUp<Value, Failure>)] = []

    @inlinable
    init() {}

    /// `entry` starts catching up with `catchUp`. `entry` must stay alive until it is unlinked.
    @inlinable
    mutating func link(_ catchUp: JoinCatchUp<Value, Failure>, for entry: AnyObject) {
        links.append((ObjectIdentifier(entry), catchUp))
    }

    /// `catchUp` is over: the owner calls its subscriber from now on.
    @inlinable
    mutating func unlink(_ catchUp: JoinCatchUp<Value, Failure>) {
        if let index = links.firstIndex(where: { $0.catchUp === catchUp }) { links.remove(at: index) }
    }

    /// The catch-up of `entry`, if it is catching up.
    @inlinable
    func catchUp(of entry: AnyObject) -> JoinCatchUp<Value, Failure>? {
        let id = ObjectIdentifier(entry)
        return links.first(where: { $0.entry == id })?.catchUp
    }
}
