import CGtk

/// One property of one GObject class, found and checked once: its spec, and the GValue plumbing to read
/// and write it with a given Swift type. Param specs belong to their class and live as long as the process.
// Safety: `spec` is immutable and owned by its class for the life of the process.
struct PropertyAccess<Value: GValueConvertible>: @unchecked Sendable {
    let spec: UnsafeMutablePointer<GParamSpec>

    /// The property's canonical name (`g_param_spec_get_name`), as `notify::` details use it.
    var name: String { String(cString: g_param_spec_get_name(spec)) }

    enum Use { case read, write, readWrite }

    init(_ object: UnsafeMutablePointer<GObject>, _ property: String, for use: Use) throws(GObjectError) {
        let typeName = String(cString: tether_object_type_name(object))
        guard let spec = g_object_class_find_property(tether_object_class(object), property) else {
            throw .noSuchProperty(type: typeName, property: property)
        }
        let flags = spec.pointee.flags.rawValue
        if use != .write, flags & G_PARAM_READABLE.rawValue == 0 {
            throw .propertyNotReadable(type: typeName, property: property)
        }
        if use != .read, flags & G_PARAM_WRITABLE.rawValue == 0 || flags & G_PARAM_CONSTRUCT_ONLY.rawValue != 0 {
            throw .propertyNotWritable(type: typeName, property: property)
        }
        guard Value.canRepresent(spec.pointee.value_type) else {
            throw .propertyTypeMismatch(
                type: typeName, property: property,
                propertyType: String(cString: g_type_name(spec.pointee.value_type)), valueType: "\(Value.self)")
        }
        self.spec = spec
    }

    /// The property's current value (`g_object_get_property`).
    func read(_ object: UnsafeMutablePointer<GObject>) -> Value? {
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, g_param_spec_get_name(spec), &value)
        return withUnsafePointer(to: &value) { Value(gValue: $0) }
    }

    /// Writes `newValue` (`g_object_set_property`), unless the property already holds an equal value.
    /// Returns whether it wrote.
    @discardableResult
    func write(_ newValue: Value, to object: UnsafeMutablePointer<GObject>) -> Bool {
        if let current = readIfReadable(object), current == newValue { return false }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        guard newValue.store(in: &value) else { return false }
        g_object_set_property(object, g_param_spec_get_name(spec), &value)
        return true
    }

    private func readIfReadable(_ object: UnsafeMutablePointer<GObject>) -> Value? {
        guard spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 else { return nil }
        return read(object)
    }
}
