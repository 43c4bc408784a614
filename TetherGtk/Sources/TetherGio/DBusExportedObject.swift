import CGio
import Synchronization
import TetherGObject

/// One property of an object exported with ``DBusConnection/export(path:interface:properties:methods:signals:)``: read-only,
/// its value the latest a signal sent; or read-write, a channel terminal whose values are its value and
/// which receives what other processes `Set`.
///
/// ```swift
/// final class Session: KeyPathObservable { @Observed var username = "" }
/// let session = Session()
/// let signedIn = MutableProperty(false)
/// let properties: [DBusExportedProperty] = [
///     .readOnly("SignedIn", signedIn.signal),
///     .readWrite("Username", session.channel(\.username)),
/// ]
/// ```
public struct DBusExportedProperty {
    let info: ExportedPropertyInfo
    /// Subscribes to the values (on the exporting thread, once); returns the subscription.
    let subscribe: (_ onValue: @escaping @Sendable (any GVariantConvertible) -> Void) -> any Disposable

    /// A read-only property whose value is the latest `values` sent; each new value is announced with
    /// `PropertiesChanged`. Until the first value, reading it fails (`org.freedesktop.DBus.Error.Failed`).
    ///
    /// ```swift
    /// let online = MutableProperty(true)
    /// let property = DBusExportedProperty.readOnly("Online", online.signal)
    /// ```
    public static func readOnly<Value: GVariantConvertible>(
        _ name: String, _ values: some SignalConvertible<Value, Never>
    ) -> DBusExportedProperty {
        let signal = values.signal
        return DBusExportedProperty(
            info: ExportedPropertyInfo(name: name, variantType: Value.variantType, writable: false, set: { _ in nil }),
            subscribe: { onValue in signal.subscribe(next: { onValue($0) }) })
    }

    /// A read-write property linked to `terminal` (a model's `channel(\.property)`, a `MutableProperty`'s
    /// `channel()`): the terminal's values are the property's value, announced with `PropertiesChanged`;
    /// a `Set` from another process sends the new value on the terminal (setting the model), and is
    /// announced too.
    ///
    /// ```swift
    /// let volume = MutableProperty(0.5)
    /// let property = DBusExportedProperty.readWrite("Volume", volume.channel())
    /// ```
    public static func readWrite<Value: GVariantConvertible>(_ name: String, _ terminal: ChannelTerminal<Value, Never>)
        -> DBusExportedProperty
    {
        DBusExportedProperty(
            info: ExportedPropertyInfo(
                name: name, variantType: Value.variantType, writable: true,
                set: { variant in
                    guard let value = Value(variant: variant) else { return nil }
                    terminal.send(value)
                    return value
                }),
            subscribe: { onValue in terminal.signal.subscribe(next: { onValue($0) }) })
    }
}

/// What the exported object keeps of a property: its name, type, and how a `Set` reaches it.
struct ExportedPropertyInfo: Sendable {
    let name: String
    let variantType: String
    let writable: Bool
    /// Sends a value another process set on the property's terminal; returns it, or `nil` when it is not
    /// of the property's type (or the property is read-only).
    let set: @Sendable (OpaquePointer) -> (any GVariantConvertible)?
}

extension DBusConnection {
    /// Exports an object on the bus (`g_dbus_connection_register_object`) whose properties follow Tether
    /// signals and channels, whose methods run closures or `Command`s, and whose D-Bus signals are emitted
    /// from Tether signals: other processes read the properties (`Properties.Get`, `GetAll`), are told of
    /// each change (`PropertiesChanged`), set the writable ones (`Properties.Set`), call the methods
    /// (`gdbus call`) and receive the signals (`gdbus monitor`); `Introspect` describes all of it. The object
    /// leaves the bus when the result is disposed: a call to its path then fails as for any path nothing
    /// exports — GDBus (2.74) answers `org.freedesktop.DBus.Error.UnknownMethod` ("Object does not exist
    /// at path …"), not `UnknownObject` — and the signals and channels it followed are unsubscribed.
    ///
    /// GDBus answers on the main context that was the calling thread's default (the default main context,
    /// usually), so run its loop; the methods' closures run there. To be found by name, the process also
    /// owns a bus name (`org.freedesktop.DBus.RequestName` through ``gdbusConnection``).
    ///
    /// - Parameters:
    ///   - path: The object's path (`/org/example/App`).
    ///   - interface: The one interface it implements (`org.example.App`).
    ///   - properties: Its properties (``DBusExportedProperty``).
    ///   - methods: Its methods (``DBusExportedMethod``).
    ///   - signals: Its D-Bus signals (``DBusExportedSignal``).
    /// - Throws: ``DBusError/invalidName(kind:value:)`` for a malformed path, interface or member name;
    ///   ``DBusError/invalidArgument(_:)`` for a value type D-Bus cannot carry (a dictionary whose key is
    ///   not a basic type); ``DBusError/remote(name:message:)`` when GDBus refuses the registration (the path
    ///   and interface are exported already).
    ///
    /// ```swift
    /// final class Session: KeyPathObservable { @Observed var username = "" }
    /// let session = Session()
    /// let signedIn = MutableProperty(false)
    /// let bus = try DBusConnection.session()
    /// let exported = try bus.export(
    ///     path: "/org/example/App", interface: "org.example.App",
    ///     properties: [.readOnly("SignedIn", signedIn.signal), .readWrite("Username", session.channel(\.username))],
    ///     methods: [.method("SignOut") { signedIn.value = false }],
    ///     signals: [.signal("SignedInChanged", signedIn.signal.skip(1), as: Bool.self)])
    /// signedIn.value = true      // PropertiesChanged and SignedInChanged (watch them: gdbus monitor --session)
    /// exported.dispose()         // the object leaves the bus
    /// ```
    public func export(
        path: String, interface: String, properties: [DBusExportedProperty] = [],
        methods: [DBusExportedMethod] = [], signals: [DBusExportedSignal] = []
    ) throws(DBusError) -> any Disposable {
        try Self.check(path, .objectPath)
        try Self.check(interface, .interface)
        for property in properties { try Self.check(property.info.name, .member) }
        for method in methods { try Self.check(method.info.name, .member) }
        for signal in signals { try Self.check(signal.name, .member) }
        // Each type must be one D-Bus can carry (a dictionary's key a basic type; no maybe types).
        let types =
            properties.map { ($0.info.name, [$0.info.variantType]) }
            + methods.map { ($0.info.name, $0.info.inTypes + $0.info.outTypes) }
            + signals.map { ($0.name, $0.types) }
        for (member, memberTypes) in types {
            for type in memberTypes where g_variant_is_signature(type) == 0 || type.isEmpty {
                throw .invalidArgument("the type '\(type)' of \(member), which D-Bus cannot carry")
            }
        }
        let object = ExportedObject(
            connection: self, path: path, interface: interface, properties: properties.map(\.info),
            methods: methods.map(\.info), signals: signals.map { ($0.name, $0.types) })
        try object.register()
        object.subscribe(properties)
        object.subscribe(signals)
        return object
    }
}

/// An exported object: the latest value of each property, its registration, and its subscriptions.
final class ExportedObject: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex, never held while a signal is subscribed to or a value sent
    // on a terminal; the other properties are immutable.
    private let connection: DBusConnection
    private let path: String
    private let interface: String
    private let properties: [String: ExportedPropertyInfo]
    private let order: [String]
    /// The methods' names and types, in order, for the introspection data.
    private let methodSignatures: [(name: String, inTypes: [String], outTypes: [String])]
    private let signals: [(name: String, types: [String])]
    /// Set by the registration's free function: GLib released the reference `register()` passed it.
    private let registrationReleased = Atomic<Bool>(false)
    private let state = Locked<
        (
            values: [String: any GVariantConvertible], registrationID: guint, subscriptions: [any Disposable],
            methods: [String: ExportedMethodInfo], disposed: Bool,
            /// The variant of each property's latest value, to announce only changes.
            variants: [String: VariantBox]
        )
    >(([:], 0, [], [:], false, [:]))

    init(
        connection: DBusConnection, path: String, interface: String, properties: [ExportedPropertyInfo],
        methods: [ExportedMethodInfo], signals: [(name: String, types: [String])]
    ) {
        self.connection = connection
        self.path = path
        self.interface = interface
        self.properties = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        order = properties.map(\.name)
        methodSignatures = methods.map { ($0.name, $0.inTypes, $0.outTypes) }
        let handlers = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        state.withLock { $0.methods = handlers }
        self.signals = signals
    }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The introspection data of the interface.
    private var xml: String {
        let propertyElements = order.compactMap { properties[$0] }.map { property in
            "<property name=\"\(property.name)\" type=\"\(property.variantType)\" access=\"\(property.writable ? "readwrite" : "read")\"/>"
        }
        let methodElements = methodSignatures.map { method in
            let arguments =
                method.inTypes.map { "<arg type=\"\($0)\" direction=\"in\"/>" }
                + method.outTypes.map { "<arg type=\"\($0)\" direction=\"out\"/>" }
            return "<method name=\"\(method.name)\">\(arguments.joined())</method>"
        }
        let signalElements = signals.map { signal in
            "<signal name=\"\(signal.name)\">\(signal.types.map { "<arg type=\"\($0)\"/>" }.joined())</signal>"
        }
        let members = (propertyElements + methodElements + signalElements).joined()
        return "<node><interface name=\"\(interface)\">\(members)</interface></node>"
    }

    func register() throws(DBusError) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else {
            throw .remote(name: "org.freedesktop.DBus.Error.InvalidArgs", message: DBusConnection.consume(error))
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.get_property = { _, _, _, _, name, error, data in
            let object = Unmanaged<ExportedObject>.fromOpaque(data!).takeUnretainedValue()
            guard let variant = object.variant(of: String(cString: name!)) else {
                g_set_error_literal(
                    error, g_dbus_error_quark(), gint(G_DBUS_ERROR_FAILED.rawValue), "the property has no value yet")
                return nil
            }
            return variant
        }
        vtable.set_property = { _, _, _, _, name, value, error, data in
            let object = Unmanaged<ExportedObject>.fromOpaque(data!).takeUnretainedValue()
            guard let value, object.set(String(cString: name!), to: value) else {
                g_set_error_literal(
                    error, g_dbus_error_quark(), gint(G_DBUS_ERROR_INVALID_ARGS.rawValue),
                    "not a value of the property's type")
                return 0
            }
            return 1
        }
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            let object = Unmanaged<ExportedObject>.fromOpaque(data!).takeUnretainedValue()
            object.call(String(cString: method!), parameters!, MethodReply(invocation!))
        }
        let id = g_dbus_connection_register_object(
            connection.connection, path, node.pointee.interfaces[0], &vtable, Unmanaged.passRetained(self).toOpaque(),
            { data in
                let object = Unmanaged<ExportedObject>.fromOpaque(data!)
                object.takeUnretainedValue().registrationReleased.store(true, ordering: .relaxed)
                object.release()
            }, &error)
        guard id != 0 else {
            // A failed registration keeps no reference to the object; GLib releases what it was given only in
            // some versions, so the reference passed above is released here unless GLib already did.
            if !registrationReleased.load(ordering: .relaxed) { Unmanaged.passUnretained(self).release() }
            throw .remote(name: "org.freedesktop.DBus.Error.ObjectPathInUse", message: DBusConnection.consume(error))
        }
        state.withLock { $0.registrationID = id }
    }

    /// Follows each property's values: stores the latest, announces each change.
    func subscribe(_ exported: [DBusExportedProperty]) {
        for property in exported {
            let name = property.info.name
            let subscription = property.subscribe { [weak self] value in self?.changed(name, to: value) }
            let keep: Bool = state.withLock { state in
                if state.disposed { return false }
                state.subscriptions.append(subscription)
                return true
            }
            if !keep { subscription.dispose() }
        }
    }

    /// Follows each D-Bus signal's Tether signal: emits each value.
    func subscribe(_ exported: [DBusExportedSignal]) {
        for signal in exported {
            let name = signal.name
            let subscription = signal.subscribe { [weak self] arguments in self?.emit(name, arguments) }
            let keep: Bool = state.withLock { state in
                if state.disposed { return false }
                state.subscriptions.append(subscription)
                return true
            }
            if !keep { subscription.dispose() }
        }
    }

    /// Emits the D-Bus signal `name` with `arguments` (a floating tuple; `nil`: not representable).
    private func emit(_ name: String, _ arguments: OpaquePointer?) {
        guard let arguments else { return }
        let registered = state.withLock { !$0.disposed && $0.registrationID != 0 }
        guard registered else { return g_variant_unref(g_variant_ref_sink(arguments)) }
        g_dbus_connection_emit_signal(connection.connection, nil, path, interface, name, arguments, nil)
    }

    /// A method call from another process (on the main context the object was exported from).
    private func call(_ name: String, _ parameters: OpaquePointer, _ reply: MethodReply) {
        // The handler (a closure, a command) runs without the lock; disposing releases it.
        guard let method = state.withLock({ $0.methods[name] }) else {
            return reply.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(name)")
        }
        method.handle(parameters, reply)
    }

    /// Stores a property's new value and announces it — unless it equals the value already held: a source
    /// that sends the same value again (a `MutableProperty` set to its value) announces nothing (issue 43:
    /// `PropertiesChanged` came twice for one value).
    private func changed(_ name: String, to value: any GVariantConvertible) {
        let made = value.makeVariant().map { VariantBox(taking: $0) }
        let announce: Bool = state.withLock { state in
            if state.disposed { return false }
            state.values[name] = value
            guard let made else { return false }
            if let last = state.variants[name],
                g_variant_equal(UnsafeRawPointer(last.variant), UnsafeRawPointer(made.variant)) != 0
            {
                return false
            }
            state.variants[name] = made
            return state.registrationID != 0
        }
        guard announce, let made else { return }
        let variant = made.variant
        defer { withExtendedLifetime(made) {} }
        // PropertiesChanged(interface, {name: <value>}, [])
        var entry: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_variant(variant))
        ]
        let changed = g_variant_new_array(tether_variant_type_string_variant_entry(), &entry, 1)
        var invalidated: [OpaquePointer?] = []
        let none = g_variant_new_array(tether_variant_type_string(), &invalidated, 0)
        var arguments: [OpaquePointer?] = [g_variant_new_string(interface), changed, none]
        g_dbus_connection_emit_signal(
            connection.connection, nil, path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            g_variant_new_tuple(&arguments, 3), nil)
    }

    /// A new floating variant of the latest value of `name`, or `nil` before its first value.
    private func variant(of name: String) -> OpaquePointer? {
        let value = state.withLock { $0.values[name] }
        return value?.makeVariant()
    }

    /// A `Set` from another process: the value goes to the terminal (which does not send it back: no
    /// echo), so it is stored and announced here.
    private func set(_ name: String, to variant: OpaquePointer) -> Bool {
        guard let property = properties[name], property.writable, let value = property.set(variant) else {
            return false
        }
        changed(name, to: value)
        return true
    }

    func dispose() {
        // The methods are released after the lock (a command's deinit sends its completions).
        let (id, subscriptions, methods): (guint, [any Disposable], [String: ExportedMethodInfo]) = state.withLock {
            state in
            if state.disposed { return (0, [], [:]) }
            state.disposed = true
            defer {
                state.subscriptions = []
                state.methods = [:]
            }
            return (state.registrationID, state.subscriptions, state.methods)
        }
        for subscription in subscriptions { subscription.dispose() }
        withExtendedLifetime(methods) {}
        if id != 0 { g_dbus_connection_unregister_object(connection.connection, id) }
    }
}

extension DBusConnection {
    /// Owns the well-known bus name `name` (`g_bus_own_name_on_connection`) until the result is disposed,
    /// so that other processes reach this connection's exported objects by that name (`gdbus call --dest
    /// org.example.App`, `gdbus monitor --dest org.example.App`). Owning is asynchronous: the name is owned
    /// once the bus has answered (follow it with ``nameOwner(of:)``); while another connection owns it,
    /// this one waits in the bus's queue and gets it when the other lets it go.
    ///
    /// - Throws: ``DBusError/invalidName(kind:value:)`` for a malformed name or a unique name (`:1.42`,
    ///   which only the bus gives).
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// let name = try bus.ownName("org.example.App")
    /// // … export objects; gdbus call --session --dest org.example.App …
    /// name.dispose()   // the name is released
    /// ```
    public func ownName(_ name: String) throws(DBusError) -> any Disposable {
        guard g_dbus_is_name(name) != 0, g_dbus_is_unique_name(name) == 0 else {
            throw .invalidName(kind: .busName, value: name)
        }
        let id = g_bus_own_name_on_connection(connection, name, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
        return OwnedName(id: id)
    }
}

/// A bus name owned until disposed.
final class OwnedName: Disposable, Sendable {
    private let id: Locked<guint>

    init(id: guint) { self.id = Locked(id) }

    var isDisposed: Bool { id.withLock { $0 == 0 } }

    func dispose() {
        let owned = id.withLock { id in
            defer { id = 0 }
            return id
        }
        if owned != 0 { g_bus_unown_name(owned) }
    }
}
