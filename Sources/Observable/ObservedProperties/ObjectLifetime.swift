@_spi(Reflection) import Swift

/// Finds storage inside an object through which Tether sees the object deinitialize.
///
/// Swift on Linux has no deinit hooks and no associated objects, so `deallocated` relies on storage the
/// object owns: the observer box of one of its `@Observed` properties (the box is deinitialized with the
/// object and tells its observers). Which property does not matter; the first `@Observed` stored
/// property (own or inherited) is used, its box allocated if needed.
///
/// Finding it without a key path needs the field's offset, which the standard library's reflection SPI
/// (`_forEachField`, the runtime's own field metadata) provides for classes. The lookup runs once per
/// class and is cached. If that SPI is unavailable, the fallback is `Mirror`, which can only reuse a box
/// that an earlier observation already allocated.
enum ObjectLifetime {
    /// The lifetime channel of `object`, or `nil` if it owns no `@Observed` property.
    ///
    /// Must be called on the object's isolation (it may allocate the property's observer box).
    static func channel(of object: AnyObject) -> (any ObservedChannelProtocol)? {
        let objectType: AnyObject.Type = type(of: object)
        switch field(of: objectType) {
        case .field(let offset, let storage):
            let base = Unmanaged.passUnretained(object).toOpaque()
            return withExtendedLifetime(object) { storage.lifetimeChannel(at: base + offset) }
        case .none:
            return nil
        case .reflectionUnavailable:
            return installedChannel(in: Mirror(reflecting: object))
        }
    }

    enum Field {
        case field(offset: Int, storage: any ObservedStorageField.Type)
        case none
        case reflectionUnavailable
    }

    private static func field(of type: AnyObject.Type) -> Field {
        let key = ObjectIdentifier(type)
        if let cached = cache.lock.withLock({ cache.fields[key] }) { return cached }
        var found: Field = .none
        let supported = _forEachField(of: type, options: classFields) { _, offset, fieldType, _ in
            guard let storage = fieldType as? any ObservedStorageField.Type else { return true }
            found = .field(offset: offset, storage: storage)
            return false
        }
        if case .none = found, !supported { found = .reflectionUnavailable }
        cache.lock.withLock { cache.fields[key] = found }
        return found
    }

    private static func installedChannel(in mirror: Mirror) -> (any ObservedChannelProtocol)? {
        for child in mirror.children {
            if let storage = child.value as? any ObservedStorageField, let channel = storage.installedChannel {
                return channel
            }
        }
        return mirror.superclassMirror.flatMap(installedChannel(in:))
    }

    /// `_EachFieldOptions.classType`, spelled by value: the SPI declares it as a mutable static.
    private static let classFields = _EachFieldOptions(rawValue: 1 << 0)

    private final class Cache: @unchecked Sendable {
        // Safety: `fields` is only accessed under `lock`.
        let lock = Lock()
        var fields: [ObjectIdentifier: Field] = [:]
    }

    private static let cache = Cache()
}

/// A stored field that can serve as an object's lifetime storage (`Observed`).
protocol ObservedStorageField {
    /// The channel of the field at `address` (inside a live object), allocating its box if needed.
    static func lifetimeChannel(at address: UnsafeMutableRawPointer) -> any ObservedChannelProtocol
    /// The channel of this copy's box, if one was allocated.
    var installedChannel: (any ObservedChannelProtocol)? { get }
}

extension Observed: ObservedStorageField {
    static func lifetimeChannel(at address: UnsafeMutableRawPointer) -> any ObservedChannelProtocol {
        address.assumingMemoryBound(to: Observed<Value>.self).pointee.installedBox().channel
    }

    var installedChannel: (any ObservedChannelProtocol)? { box?.channel }
}
