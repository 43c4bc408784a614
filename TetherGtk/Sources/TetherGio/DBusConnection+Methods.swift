import CGio
import TetherGObject

extension DBusConnection {
    /// A method call as a cold signal: each subscription calls `method` with `arguments`
    /// (`g_dbus_connection_call`), sends the reply's one value and completes. Disposing before the reply
    /// cancels the call (`GCancellable`). Wrap it in a `Command` to bind it to a button.
    ///
    /// The signal fails with ``DBusError/remote(name:message:)`` for the service's error reply (or no
    /// such service or method), with ``DBusError/typeMismatch(member:expected:actual:)`` when the reply is
    /// not one `Reply`.
    ///
    /// - Parameters:
    ///   - method: The method's name (`GetNameOwner`).
    ///   - interface: The interface that declares it.
    ///   - path: The object's path.
    ///   - destination: The bus name of the service that owns the object.
    ///   - arguments: The method's arguments, in order, as ``GVariantConvertible`` values (`[name]`,
    ///     `[Int32(2), 40]`).
    ///   - type: The Swift type of the reply's one value.
    ///   - timeout: How long to wait for the reply; `nil` is GDBus's default (25 s). A timeout fails the
    ///     signal with ``DBusError/timedOut``.
    /// - Throws: ``DBusError/invalidName(kind:value:)`` at the call for a malformed name or path,
    ///   ``DBusError/invalidArgument(_:)`` for an argument GVariant cannot hold.
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// let id = try bus.call(
    ///     "GetId", interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", on: "org.freedesktop.DBus",
    ///     returning: String.self)
    /// id.subscribe(next: { print("the bus's id:", $0) }, error: { print($0) })
    /// // A Command for a button: each execution makes the call.
    /// let lookUp = Command { (name: String) in
    ///     (try? bus.call(
    ///         "GetNameOwner", interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///         on: "org.freedesktop.DBus", arguments: [name], returning: String.self))
    ///         ?? Signal(error: .invalidName(kind: .busName, value: name))
    /// }
    /// ```
    /// Marble: subscribe → the reply `r` → `r|`; an error reply → `#`.
    public func call<Reply: GVariantConvertible>(
        _ method: String, interface: String, path: String, on destination: String,
        arguments: [any GVariantConvertible] = [], returning type: Reply.Type, timeout: Duration? = nil
    ) throws(DBusError) -> Signal<Reply, DBusError> {
        let request = try MethodRequest(
            connection: self, destination: destination, path: path, interface: interface, method: method,
            arguments: arguments, timeout: timeout)
        return Signal<Reply, DBusError> { observer in
            MethodCall.start(request) { reply in
                let actual = String(cString: g_variant_get_type_string(reply))
                guard g_variant_n_children(reply) == 1 else {
                    return .typeMismatch(member: method, expected: "(\(Reply.variantType))", actual: actual)
                }
                let child = g_variant_get_child_value(reply, 0)!
                defer { g_variant_unref(child) }
                guard let value = Reply(variant: child) else {
                    return .typeMismatch(member: method, expected: "(\(Reply.variantType))", actual: actual)
                }
                observer.send(value)
                observer.sendCompleted()
                return nil
            } fail: {
                observer.send(event: .error($0))
            }
        }
    }

    /// A call to a method whose reply carries nothing Tether needs (or nothing at all): sends `()` when it
    /// returns, then completes; otherwise as ``call(_:interface:path:on:arguments:returning:timeout:)``.
    ///
    /// - Parameters:
    ///   - method: The method's name.
    ///   - interface: The interface that declares it.
    ///   - path: The object's path.
    ///   - destination: The bus name of the service that owns the object.
    ///   - arguments: The method's arguments, in order.
    ///   - timeout: How long to wait for the reply; `nil` is GDBus's default.
    /// - Throws: ``DBusError/invalidName(kind:value:)``, ``DBusError/invalidArgument(_:)``.
    ///
    /// ```swift
    /// let session = try DBusConnection.session()
    /// let ping = try session.call(
    ///     "Ping", interface: "org.freedesktop.DBus.Peer", path: "/org/freedesktop/DBus", on: "org.freedesktop.DBus")
    /// ping.subscribe(completed: { print("the bus answered") })
    /// ```
    public func call(
        _ method: String, interface: String, path: String, on destination: String,
        arguments: [any GVariantConvertible] = [], timeout: Duration? = nil
    ) throws(DBusError) -> Signal<Void, DBusError> {
        let request = try MethodRequest(
            connection: self, destination: destination, path: path, interface: interface, method: method,
            arguments: arguments, timeout: timeout)
        return Signal<Void, DBusError> { observer in
            MethodCall.start(request) { _ in
                observer.send(())
                observer.sendCompleted()
                return nil
            } fail: {
                observer.send(event: .error($0))
            }
        }
    }
}

/// A checked method call, ready to be made any number of times.
struct MethodRequest: Sendable {
    let connection: DBusConnection
    let destination: String
    let path: String
    let interface: String
    let method: String
    let arguments: [any GVariantConvertible]
    let timeoutMilliseconds: gint

    init(
        connection: DBusConnection, destination: String, path: String, interface: String, method: String,
        arguments: [any GVariantConvertible], timeout: Duration?
    ) throws(DBusError) {
        try DBusConnection.check(destination, .busName)
        try DBusConnection.check(path, .objectPath)
        try DBusConnection.check(interface, .interface)
        try DBusConnection.check(method, .member)
        for argument in arguments {
            guard let variant = argument.makeVariant() else { throw .invalidArgument("\(argument)") }
            g_variant_unref(g_variant_ref_sink(variant))
        }
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
        self.method = method
        self.arguments = arguments
        if let timeout {
            let milliseconds =
                timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
            timeoutMilliseconds = gint(clamping: max(milliseconds, 1))
        } else {
            timeoutMilliseconds = -1
        }
    }

    /// The arguments as a floating tuple.
    func parameters() -> OpaquePointer? {
        var children: [OpaquePointer?] = arguments.map { $0.makeVariant() }
        return g_variant_new_tuple(&children, gsize(children.count))
    }
}
