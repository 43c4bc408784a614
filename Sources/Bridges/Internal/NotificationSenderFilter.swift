import Foundation
import Observable

/// The object filter of a bridged notification observation: is a post from that very object, and is the
/// object still alive — without a weak reference to it.
///
/// A weak reference gives its object a side table, and from then on every retain and release of the
/// object takes the runtime's slow path — Foundation's own too, several per post (Benchmarks/README.md,
/// "Runtime assumptions"). An unowned reference uses the object's inline counts. It does not keep the
/// object alive (its deinit runs when the last strong reference goes), only its memory allocated until
/// this filter is freed, and that is what makes the filter exact: no other object can be allocated at the
/// address meanwhile, so comparing addresses compares identities (Foundation on Linux filters by address,
/// which can match a new object at a dead one's address).
///
/// The unowned reference is never read (that traps once the object is deinitialized): the liveness
/// checks ask the runtime about the pinned address instead (``RuntimeAssumptions``). When its self-test
/// finds those queries missing or wrong, the filter keeps a weak reference for liveness as well (the
/// safe path: slower posts, the same answers).
final class NotificationSenderFilter: @unchecked Sendable {
    // Safety: `weakObject` is written only in `init`, every other stored property is immutable.
    // `address` stays valid memory while `pin` exists, and is only compared and handed to the runtime's
    // reference-count queries (atomic).
    private unowned let pin: AnyObject
    private let address: UnsafeMutableRawPointer
    /// Whether liveness is asked of the runtime (``RuntimeAssumptions/objectQueriesWork``); otherwise
    /// ``weakObject`` answers.
    private let asksRuntime: Bool
    /// The object, weakly: set only on the safe path.
    private weak var weakObject: AnyObject?
    /// The address of a post's object (`nil` when it is no class instance). A class instance is compared
    /// without a cast: `sender as AnyObject` bridges through the runtime's conformance lookups, and
    /// `sender as? Object` casts dynamically; anything else (an object wrapped in an `Optional`, a value)
    /// is bridged as Foundation's own filter bridges it.
    private let addressOfSender: @Sendable (Any) -> UnsafeMutableRawPointer?

    convenience init(_ object: AnyObject) {
        self.init(object, usingRuntimeQueries: RuntimeAssumptions.objectQueriesWork)
    }

    /// `usingRuntimeQueries: false` forces the safe path (tests).
    init(_ object: AnyObject, usingRuntimeQueries: Bool) {
        pin = object
        address = Unmanaged.passUnretained(object).toOpaque()
        asksRuntime = usingRuntimeQueries
        if !usingRuntimeQueries { weakObject = object }
        addressOfSender = Self.senderAddress(comparingWith: object)  // `object` opened: its class
    }

    private static func senderAddress<Object: AnyObject>(
        comparingWith _: Object
    ) -> @Sendable (Any) -> UnsafeMutableRawPointer? {
        { sender in address(of: sender, ifAn: Object.self) }  // `sender` opened
    }

    private static func address<Sender, Object: AnyObject>(
        of sender: Sender, ifAn _: Object.Type
    ) -> UnsafeMutableRawPointer? {
        // `Sender` is the type the post's object was stored as in the `Any` (the opened existential): the
        // object's class, a superclass of it, or a wrapper such as `Optional`.
        if Sender.self == Object.self || Sender.self is AnyObject.Type {
            // A class instance: its value is a strong reference, which `Unmanaged` turns into the address
            // without retaining it.
            return withUnsafeBytes(of: sender) { $0.load(as: UnsafeMutableRawPointer.self) }
        }
        // A bridged value may be a temporary box, freed at once: its address is never the filter object's,
        // which stays allocated.
        return Unmanaged.passUnretained(sender as AnyObject).toOpaque()
    }

    /// Whether `notification` was posted by the filter object.
    ///
    /// The post's object is borrowed, not copied: `guard let sender = notification.object` would copy the
    /// `Any` (a retain through its value witness) and destroy it again on every post.
    @inline(__always)
    func matches(_ notification: Notification) -> Bool {
        Self.borrowingWrapped(notification.object) { addressOfSender($0) == address } ?? false
    }

    /// Calls `body` with the value in `optional`, borrowed. Pattern-matching an optional `Any` copies its
    /// value; a switch over a borrowed optional of a possibly noncopyable type does not.
    @inline(__always)
    private static func borrowingWrapped<Wrapped: ~Copyable, Result>(
        _ optional: borrowing Wrapped?, _ body: (borrowing Wrapped) -> Result
    ) -> Result? {
        switch optional {
        case .some(let wrapped): body(wrapped)
        case .none: nil
        }
    }

    /// Whether the object's deinit has started: it is gone, or going.
    var isGone: Bool { asksRuntime ? RuntimeAssumptions.isDeinitializing(address) : weakObject == nil }

    /// The object, if it is still alive.
    var object: AnyObject? { asksRuntime ? RuntimeAssumptions.retainedIfAlive(address) : weakObject }
}
