import TetherEngine

/// Finds storage inside an object through which Tether sees the object deinitialize.
///
/// Swift on Linux has no deinit hooks and no associated objects, so `deallocated` relies on storage the
/// object owns: the observer box of one of its `@Observed` properties (the box is deinitialized with the
/// object and tells its observers). Which property does not matter; the first `@Observed` stored
/// property (own or inherited) is used, its box allocated if needed.
///
/// Finding it without a key path needs the field's offset, which only the standard library's reflection
/// SPI provides (``RuntimeAssumptions/firstObservedField(of:)``, checked by a self-test). The lookup runs
/// once per class and is cached. When the SPI cannot be used, the fallback is `Mirror`, which can only
/// reuse a box that an earlier observation already allocated: an object none of whose `@Observed`
/// properties was ever observed then has no lifetime channel.
enum ObjectLifetime {
    /// The lifetime channel of `object`, or `nil` if it owns no `@Observed` property.
    ///
    /// Must be called on the object's isolation (it may allocate the property's observer box).
    /// `usingFieldOffsets` is for tests, which force the fallback.
    static func channel(
        of object: AnyObject, usingFieldOffsets: Bool = RuntimeAssumptions.fieldOffsetsWork
    ) -> (any AnyPropertyObserverList)? {
        let objectType: AnyObject.Type = type(of: object)
        switch usingFieldOffsets ? field(of: objectType) : .reflectionUnavailable {
        case .field(let offset, let storage):
            let base = Unmanaged.passUnretained(object).toOpaque()
            return withExtendedLifetime(object) { storage.value.lifetimeChannel(at: base + offset) }
        case .none:
            return nil
        case .reflectionUnavailable:
            return installedChannel(in: Mirror(reflecting: object))
        }
    }

    enum Field {
        /// The field's offset in the object, and its type. The metatype is only used to call a static
        /// method, which touches no shared state: safe from any thread (the protocol does not refine
        /// `SendableMetatype`, which would add that conformance to the public `Observed`).
        case field(offset: Int, storage: UncheckedSendable<any LifetimeStorageField.Type>)
        case none
        case reflectionUnavailable
    }

    private static func field(of type: AnyObject.Type) -> Field {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let found: Field =
            switch RuntimeAssumptions.firstObservedField(of: type) {
            case .field(let offset, let storage): .field(offset: offset, storage: UncheckedSendable(storage))
            case .none: .none
            case .unsupported: .reflectionUnavailable
            }
        cache.withLock { $0[key] = found }
        return found
    }

    private static func installedChannel(in mirror: Mirror) -> (any AnyPropertyObserverList)? {
        for child in mirror.children {
            if let storage = child.value as? any LifetimeStorageField, let channel = storage.installedChannel {
                return channel
            }
        }
        return mirror.superclassMirror.flatMap(installedChannel(in:))
    }

    /// The fields found so far, by class.
    private static let cache = LockedState<[ObjectIdentifier: Field]>([:])
}

/// A stored field that can serve as an object's lifetime storage (`Observed`).
protocol LifetimeStorageField {
    /// The channel of the field at `address` (inside a live object), allocating its box if needed.
    static func lifetimeChannel(at address: UnsafeMutableRawPointer) -> any AnyPropertyObserverList
    /// The channel of this copy's box, if one was allocated.
    var installedChannel: (any AnyPropertyObserverList)? { get }
}

extension Observed: LifetimeStorageField {
    static func lifetimeChannel(at address: UnsafeMutableRawPointer) -> any AnyPropertyObserverList {
        address.assumingMemoryBound(to: Observed<Value>.self).pointee.installedBox().channel
    }

    var installedChannel: (any AnyPropertyObserverList)? { box?.channel }
}
