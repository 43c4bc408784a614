/// One interface of introspection XML (`<interface>`): its members, annotations and documentation, as the
/// generator reads them.
///
/// ```swift
/// let interfaces = try DBusCodegen.parse(
///     "<node><interface name='org.example.Clock'><property name='Time' type='t' access='read'/></interface></node>")
/// print(interfaces[0].properties[0].name)   // Time
/// ```
public struct DBusInterfaceDescription: Equatable, Sendable {
    /// The interface's D-Bus name (`org.freedesktop.UPower.Device`).
    public var name: String
    /// Its methods, in document order.
    public var methods: [DBusMethodDescription] = []
    /// Its D-Bus signals, in document order.
    public var signals: [DBusSignalDescription] = []
    /// Its properties, in document order.
    public var properties: [DBusPropertyDescription] = []
    /// Its annotations (`org.freedesktop.DBus.Deprecated` → `true`).
    public var annotations: [String: String] = [:]
    /// The text of its `<doc>` element or of the XML comment before it, if any.
    public var documentation: String?

    /// An interface named `name`, without members yet.
    ///
    /// ```swift
    /// let empty = DBusInterfaceDescription(name: "org.example.Empty")
    /// ```
    public init(name: String) { self.name = name }
}

/// A method of an interface: its `in` arguments, its `out` arguments (its reply's values).
///
/// ```swift
/// let interfaces = try DBusCodegen.parse(
///     "<node><interface name='a.b'><method name='Add'><arg type='i'/><arg type='i' direction='out'/></method></interface></node>")
/// print(interfaces[0].methods[0].outputs.count)   // 1
/// ```
public struct DBusMethodDescription: Equatable, Sendable {
    /// The method's D-Bus name (`EnumerateDevices`).
    public var name: String
    /// Its arguments, in order (`direction="in"`, the default).
    public var inputs: [DBusArgumentDescription] = []
    /// Its reply's values, in order (`direction="out"`).
    public var outputs: [DBusArgumentDescription] = []
    /// Its annotations.
    public var annotations: [String: String] = [:]
    /// Its documentation, if any.
    public var documentation: String?
}

/// A D-Bus signal of an interface and its arguments.
///
/// ```swift
/// let interfaces = try DBusCodegen.parse(
///     "<node><interface name='a.b'><signal name='Moved'><arg name='x' type='d'/></signal></interface></node>")
/// print(interfaces[0].signals[0].arguments[0].name ?? "")   // x
/// ```
public struct DBusSignalDescription: Equatable, Sendable {
    /// The signal's D-Bus name (`DeviceAdded`).
    public var name: String
    /// Its arguments, in order.
    public var arguments: [DBusArgumentDescription] = []
    /// Its annotations.
    public var annotations: [String: String] = [:]
    /// Its documentation, if any.
    public var documentation: String?
}

/// An argument of a method or a signal.
///
/// ```swift
/// let argument = DBusArgumentDescription(name: "devices", type: .array(.objectPath))
/// print(argument.type.signature)   // ao
/// ```
public struct DBusArgumentDescription: Equatable, Sendable {
    /// The argument's name in the XML (optional there).
    public var name: String?
    /// Its type.
    public var type: DBusType
    /// Its documentation, if any.
    public var documentation: String?

    /// An argument `name` of type `type`.
    ///
    /// ```swift
    /// let argument = DBusArgumentDescription(name: "state", type: .uint32)
    /// ```
    public init(name: String?, type: DBusType, documentation: String? = nil) {
        self.name = name
        self.type = type
        self.documentation = documentation
    }
}

/// A property of an interface: its type, access and how it announces changes.
///
/// ```swift
/// let interfaces = try DBusCodegen.parse(
///     "<node><interface name='a.b'><property name='Rate' type='u' access='readwrite'/></interface></node>")
/// print(interfaces[0].properties[0].access)   // readWrite
/// ```
public struct DBusPropertyDescription: Equatable, Sendable {
    /// Who may read and write a property.
    ///
    /// ```swift
    /// print(DBusPropertyDescription.Access.read.isReadable)   // true
    /// ```
    public enum Access: String, Equatable, Sendable {
        /// `read`: other processes read it.
        case read
        /// `write`: other processes set it, and cannot read it.
        case write
        /// `readwrite`: both.
        case readWrite = "readwrite"

        /// Whether the property can be read (`read`, `readwrite`).
        ///
        /// ```swift
        /// print(DBusPropertyDescription.Access.write.isReadable)   // false
        /// ```
        public var isReadable: Bool { self != .write }
        /// Whether the property can be set (`write`, `readwrite`).
        ///
        /// ```swift
        /// print(DBusPropertyDescription.Access.readWrite.isWritable)   // true
        /// ```
        public var isWritable: Bool { self != .read }
    }

    /// How a property announces its changes: `org.freedesktop.DBus.Property.EmitsChangedSignal`, on the
    /// property or else on its interface (`true` when neither says).
    ///
    /// ```swift
    /// print(DBusPropertyDescription.Changes(rawValue: "const") == .const)   // true
    /// ```
    public enum Changes: String, Equatable, Sendable {
        /// `true`: announced with the new value.
        case emitted = "true"
        /// `invalidates`: announced without the value.
        case invalidates
        /// `const`: the value never changes.
        case const
        /// `false`: not announced.
        case notEmitted = "false"

        /// The name of the matching `DBusPropertyChanges` case in TetherGio.
        var tetherCase: String {
            switch self {
            case .emitted: "emitted"
            case .invalidates: "invalidates"
            case .const: "const"
            case .notEmitted: "notEmitted"
            }
        }
    }

    /// The property's D-Bus name (`Percentage`).
    public var name: String
    /// Its type.
    public var type: DBusType
    /// Its access.
    public var access: Access
    /// How it announces its changes.
    public var changes: Changes = .emitted
    /// Its annotations.
    public var annotations: [String: String] = [:]
    /// Its documentation, if any.
    public var documentation: String?
}
