import Foundation
import TetherShims

/// The object filter of a bridged notification observation: is a post from that very object, and is the
/// object still alive — without a weak reference to it.
///
/// A weak reference gives its object a side table, and from then on every retain and release of the
/// object takes the runtime's slow path — Foundation's own too, several per post (benchmark W7: the
/// filtered row spent a quarter of its time there). An unowned reference uses the object's inline
/// counts. It does not keep the object alive (its deinit runs when the last strong reference goes), only
/// its memory allocated until this filter is freed, and that is what makes the filter exact: no other
/// object can be allocated at the address meanwhile, so comparing addresses compares identities
/// (Foundation on Linux filters by address, and matched a new object at a dead one's address).
///
/// The unowned reference is never read (that traps once the object is deinitialized): the liveness
/// checks ask the runtime about the pinned address instead.
final class NotificationSenderFilter: @unchecked Sendable {
    // Safety: every stored property is immutable. `address` stays valid memory while `pin` exists, and is
    // only compared and handed to the runtime's reference-count queries (atomic; TetherShims.h).
    private unowned let pin: AnyObject
    private let address: UnsafeMutableRawPointer
    /// The object's class (the address of its metadata): a post's `Any` stored as exactly this type holds
    /// the reference itself, which ``matches(_:)`` reads without a call.
    private let objectClass: UInt
    /// The address of a post's object stored as any other type (the general path of ``matches(_:)``). A
    /// class instance is compared without a cast (`sender as AnyObject` bridges through the runtime's
    /// conformance lookups, ~3,000 instructions per post, and `sender as? Object` ~1,300); anything else
    /// (an object wrapped in an `Optional`, a value) is bridged as Foundation's own filter bridges it.
    private let addressOfSender: @Sendable (Any) -> UnsafeMutableRawPointer?

    init(_ object: AnyObject) {
        pin = object
        address = Unmanaged.passUnretained(object).toOpaque()
        objectClass = UInt(bitPattern: ObjectIdentifier(type(of: object)))
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
            // A class: its value is the reference, the object's address.
            return withUnsafeBytes(of: sender) { $0.load(as: UnsafeMutableRawPointer.self) }
        }
        // A bridged value may be a temporary box, freed at once: its address is never the filter object's,
        // which stays allocated.
        return Unmanaged.passUnretained(sender as AnyObject).toOpaque()
    }

    /// Whether `notification` was posted by the filter object.
    ///
    /// The post's object is borrowed, not copied: `guard let sender = notification.object` copied the
    /// `Any` (a retain through its value witness) and destroyed it again, ~180 instructions per post.
    /// An object posted as its own class (the common case) is compared in a few instructions; the opened
    /// generic path cost ~100 per post (benchmark W7, object filter).
    @inline(__always)
    func matches(_ notification: Notification) -> Bool {
        if let reference = Self.reference(in: notification.object, ifExactly: objectClass) {
            return reference == address
        }
        return Self.borrowingWrapped(notification.object) { addressOfSender($0) == address } ?? false
    }

    /// The reference in `sender` when it holds a value stored as exactly the class `type` (the common case:
    /// a post's object passed as its own class), read from the existential's storage; otherwise `nil`, and
    /// ``addressOfSender`` decides (a superclass, an `Optional`, a value, no object).
    ///
    /// An `Any` is three words of inline storage followed by its stored type's metadata (the Swift ABI's
    /// opaque existential layout); a class instance is stored inline, its first word the reference. An
    /// `Optional<Any>` of the same size is the `Any` itself, and its `nil` an invalid metadata pointer. The
    /// stored type is compared first, so a value whose first word happens to be the object's address (an
    /// `ObjectIdentifier`, a pointer) never matches.
    ///
    /// The parameter is the `Optional`: a bare `Any` passed to `withUnsafeBytes(of:)` is opened (Swift 6
    /// opens existentials passed to generic parameters), which would show the stored value's bytes instead.
    @inline(__always)
    private static func reference(in sender: borrowing Any?, ifExactly type: UInt) -> UnsafeMutableRawPointer? {
        // Constant: checks the layout the loads rely on (otherwise everything takes the general path).
        guard MemoryLayout<Any?>.size == MemoryLayout<Any>.size, MemoryLayout<Any>.size == 4 * MemoryLayout<UInt>.size
        else { return nil }
        return withUnsafeBytes(of: sender) { storage in
            storage.load(fromByteOffset: 3 * MemoryLayout<UInt>.size, as: UInt.self) == type
                ? storage.load(as: UnsafeMutableRawPointer.self) : nil
        }
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
    var isGone: Bool { tether_object_is_deinitializing(address) }

    /// The object, if it is still alive.
    var object: AnyObject? {
        guard tether_object_try_retain(address) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
    }
}
