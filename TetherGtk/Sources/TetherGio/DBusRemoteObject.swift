import CGio
import TetherGObject

/// One interface of a remote object — a bus name, an object path and an interface name checked once — whose
/// members are read, called and watched by name with typed values. The clients that `tether-dbus-codegen`
/// generates from introspection XML are built on it; use it directly for an interface without XML.
///
/// Nothing here throws for a name: they were checked by the initializer. Failures arrive in the signals and
/// the `async` calls as ``DBusError``s.
///
/// ```swift
/// let bus = try DBusConnection.system()
/// let battery = try DBusRemoteObject(
///     connection: bus, destination: "org.freedesktop.UPower",
///     path: "/org/freedesktop/UPower/devices/battery_BAT0", interface: "org.freedesktop.UPower.Device")
/// battery.property("Percentage", as: Double.self).subscribe(next: { print("\($0) %") }, error: { print($0) })
/// ```
public struct DBusRemoteObject: Sendable {
    /// The bus the object is on.
    ///
    /// ```swift
    /// let object = try DBusRemoteObject(
    ///     connection: DBusConnection.session(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///     interface: "org.freedesktop.DBus")
    /// print(object.connection.uniqueName ?? "")
    /// ```
    public let connection: DBusConnection
    /// The bus name of the service that owns the object (`org.freedesktop.UPower`).
    ///
    /// ```swift
    /// let object = try DBusRemoteObject(
    ///     connection: DBusConnection.session(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///     interface: "org.freedesktop.DBus")
    /// print(object.destination)   // org.freedesktop.DBus
    /// ```
    public let destination: String
    /// The object's path.
    ///
    /// ```swift
    /// let object = try DBusRemoteObject(
    ///     connection: DBusConnection.session(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///     interface: "org.freedesktop.DBus")
    /// print(object.path)   // /org/freedesktop/DBus
    /// ```
    public let path: String
    /// The interface whose members this names.
    ///
    /// ```swift
    /// let object = try DBusRemoteObject(
    ///     connection: DBusConnection.session(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///     interface: "org.freedesktop.DBus")
    /// print(object.interface)   // org.freedesktop.DBus
    /// ```
    public let interface: String

    /// The interface `interface` of the object at `path` owned by `destination` on `connection`.
    ///
    /// - Throws: ``DBusError/invalidName(kind:value:)`` for a malformed bus name, path or interface name.
    ///
    /// ```swift
    /// let manager = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.NetworkManager",
    ///     path: "/org/freedesktop/NetworkManager", interface: "org.freedesktop.NetworkManager")
    /// ```
    public init(connection: DBusConnection, destination: String, path: String, interface: String) throws(DBusError) {
        try DBusConnection.check(destination, .busName)
        try DBusConnection.check(path, .objectPath)
        try DBusConnection.check(interface, .interface)
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
    }

    /// A property as a signal: as ``DBusConnection/property(_:interface:path:on:as:)`` when its changes are
    /// announced (`changes` ``DBusPropertyChanges/emitted`` or ``DBusPropertyChanges/invalidates``: the
    /// current value, then each change); read once, sent and completed when they are not
    /// (``DBusPropertyChanges/const``, ``DBusPropertyChanges/notEmitted``).
    ///
    /// A malformed member name fails the signal with ``DBusError/invalidName(kind:value:)``.
    ///
    /// ```swift
    /// let upower = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.UPower",
    ///     path: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower")
    /// upower.property("OnBattery", as: Bool.self).subscribe(next: { print($0 ? "on battery" : "on mains") })
    /// upower.property("DaemonVersion", as: String.self, changes: .const).subscribe(next: { print($0) })
    /// ```
    public func property<Value: GVariantConvertible>(
        _ name: String, as type: Value.Type = Value.self, changes: DBusPropertyChanges = .emitted
    ) -> Signal<Value, DBusError> {
        let values: Signal<Value, DBusError>
        do {
            values = try connection.property(name, interface: interface, path: path, on: destination, as: Value.self)
        } catch {
            return Signal(error: error)
        }
        return changes.isFollowed ? values : values.take(1)
    }

    /// Sets a writable property (`org.freedesktop.DBus.Properties.Set`); returns when the service has.
    ///
    /// - Throws: the service's refusal (``DBusError/remote(name:message:)``: read-only, access denied, a
    ///   value it does not take), ``DBusError/invalidArgument(_:)`` for a value GVariant cannot hold.
    ///
    /// ```swift
    /// let statistics = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.NetworkManager",
    ///     path: "/org/freedesktop/NetworkManager/Devices/1",
    ///     interface: "org.freedesktop.NetworkManager.Device.Statistics")
    /// Task { try await statistics.setProperty("RefreshRateMs", to: UInt32(1000)) }
    /// ```
    public func setProperty<Value: GVariantConvertible>(_ name: String, to value: Value) async throws(DBusError) {
        try await Self.first(setting(name, to: value))
    }

    /// A binding of a writable property to `values`: each value is set on the remote object
    /// (`Properties.Set`), in order, until the result is disposed — `RAC(object, property) = signal` across
    /// processes. A write the service refuses is passed to `failed` (and does not end the binding).
    ///
    /// ```swift
    /// let statistics = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.NetworkManager",
    ///     path: "/org/freedesktop/NetworkManager/Devices/1",
    ///     interface: "org.freedesktop.NetworkManager.Device.Statistics")
    /// let rate = MutableProperty<UInt32>(1000)
    /// let binding = statistics.bindProperty("RefreshRateMs", to: rate.signal, failed: { print($0) })
    /// rate.value = 500     // Properties.Set("RefreshRateMs", <uint32 500>)
    /// binding.dispose()
    /// ```
    public func bindProperty<Value: GVariantConvertible>(
        _ name: String, to values: some SignalConvertible<Value, Never>,
        failed: @escaping @Sendable (DBusError) -> Void = { _ in }
    ) -> any Disposable {
        let object = self
        return values.signal.subscribe(next: { value in
            object.setting(name, to: value).subscribe(error: failed)
        })
    }

    /// A cold signal that sets the property once per subscription.
    private func setting<Value: GVariantConvertible>(_ name: String, to value: Value) -> Signal<Void, DBusError> {
        guard let boxed = GVariantValue(value) else {
            return Signal(error: .invalidArgument("\(name)'s value \(value)"))
        }
        do {
            return try connection.call(
                "Set", interface: "org.freedesktop.DBus.Properties", path: path, on: destination,
                arguments: [interface, name, boxed])
        } catch {
            return Signal(error: error)
        }
    }

    /// A method call as a cold signal: each subscription calls `method` with the arguments, sends the reply's
    /// values (one value: itself; several: a tuple; none: `()`) and completes; disposing before the reply
    /// cancels the call. A reply of other types fails it with ``DBusError/typeMismatch(member:expected:actual:)``;
    /// an error reply with ``DBusError/remote(name:message:)``. This is the work of a `Command`:
    /// `Command { (name: String) in object.callSignal("Lookup", arguments: name, returning: String.self) }`.
    ///
    /// ```swift
    /// let upower = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.UPower",
    ///     path: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower")
    /// let devices = upower.callSignal("EnumerateDevices", returning: [DBusObjectPath].self)
    /// devices.subscribe(next: { print($0) }, error: { print($0) })
    /// let enumerate = Command { () in devices }   // bind it to a button
    /// ```
    public func callSignal<each Argument: GVariantConvertible, each Reply: GVariantConvertible>(
        _ method: String, arguments: repeat each Argument, returning replyTypes: repeat (each Reply).Type,
        timeout: Duration? = nil
    ) -> Signal<(repeat each Reply), DBusError> {
        var list: [any GVariantConvertible] = []
        for argument in repeat each arguments { list.append(argument) }
        let request: MethodRequest
        do {
            request = try MethodRequest(
                connection: connection, destination: destination, path: path, interface: interface, method: method,
                arguments: list, timeout: timeout)
        } catch {
            return Signal(error: error)
        }
        var expected = "("
        for type in repeat (each Reply).self { expected += type.variantType }
        expected += ")"
        let signature = expected
        return Signal<(repeat each Reply), DBusError> { observer in
            MethodCall.start(request) { reply in
                guard let values = DBusConnection.arguments(reply, as: repeat (each Reply).self) else {
                    let actual = String(cString: g_variant_get_type_string(reply))
                    return .typeMismatch(member: method, expected: signature, actual: actual)
                }
                observer.send((repeat each values))
                observer.sendCompleted()
                return nil
            } fail: {
                observer.send(event: .error($0))
            }
        }
    }

    /// Calls `method` with the arguments and returns the reply's values (one value: itself; several: a tuple;
    /// none: `()`), as ``callSignal(_:arguments:returning:timeout:)`` does; cancelling the task cancels the
    /// call.
    ///
    /// - Throws: the error reply (``DBusError/remote(name:message:)``), ``DBusError/typeMismatch(member:expected:actual:)``,
    ///   ``DBusError/timedOut``; ``DBusError/remote(name:message:)`` named `org.tether.Error.Cancelled` when the
    ///   task was cancelled first.
    ///
    /// ```swift
    /// let upower = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.UPower",
    ///     path: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower")
    /// Task {
    ///     let display = try await upower.call("GetDisplayDevice", returning: DBusObjectPath.self)
    ///     print(display)   // /org/freedesktop/UPower/devices/DisplayDevice
    /// }
    /// ```
    public func call<each Argument: GVariantConvertible, each Reply: GVariantConvertible>(
        _ method: String, arguments: repeat each Argument, returning replyTypes: repeat (each Reply).Type,
        timeout: Duration? = nil
    ) async throws(DBusError) -> (repeat each Reply) {
        try await Self.first(
            callSignal(method, arguments: repeat each arguments, returning: repeat (each Reply).self, timeout: timeout))
    }

    /// A D-Bus signal of this interface, emitted by this object, as a signal of its arguments (typed as
    /// ``DBusConnection/signal(_:interface:path:from:as:)`` types them). A malformed member name fails it with
    /// ``DBusError/invalidName(kind:value:)``.
    ///
    /// ```swift
    /// let manager = try DBusRemoteObject(
    ///     connection: DBusConnection.system(), destination: "org.freedesktop.NetworkManager",
    ///     path: "/org/freedesktop/NetworkManager", interface: "org.freedesktop.NetworkManager")
    /// manager.signal("DeviceAdded", as: DBusObjectPath.self).subscribe(next: { print("added", $0) })
    /// ```
    public func signal<each Argument: GVariantConvertible>(
        _ member: String, as types: repeat (each Argument).Type
    ) -> Signal<(repeat each Argument), DBusError> {
        do {
            return try connection.signal(
                member, interface: interface, path: path, from: destination, as: repeat (each Argument).self)
        } catch {
            return Signal(error: error)
        }
    }

    /// The first value of a signal that sends one value (a reply), awaited; cancelling the task disposes it.
    private static func first<Value: Sendable>(_ signal: Signal<Value, DBusError>) async throws(DBusError) -> Value {
        var values = signal.values.makeAsyncIterator()
        guard let value = try await values.next() else {
            throw .remote(name: "org.tether.Error.Cancelled", message: "the task was cancelled before the reply")
        }
        return value
    }
}
