import CGio
import Synchronization
import TetherGObject

/// A connection to a D-Bus bus (`GDBusConnection`): remote objects' properties as signals
/// (``property(_:interface:path:on:as:)``), their D-Bus signals with typed arguments
/// (``signal(_:interface:path:from:as:)``), bus names' owners (``nameOwner(of:)``) and method calls as
/// cold signals (``call(_:interface:path:on:arguments:returning:timeout:)``) — KVO and notifications for
/// objects in other processes: NetworkManager's connectivity, UPower's battery, a media player's track.
///
/// **Threads.** The connection may be used from any thread. A signal's values are sent on the GLib main
/// context that was the subscribing thread's default when it subscribed — the default main context,
/// usually — so that context's loop must run (`g_main_loop_run`, GTK's loop, `g_main_context_iteration`).
///
/// ```swift
/// let bus = try DBusConnection.system()
/// let state = try bus.property(
///     "State", interface: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
///     on: "org.freedesktop.NetworkManager", as: UInt32.self)
/// state.subscribe(next: { print("NetworkManager state", $0) }, error: { print($0) })
/// ```
public final class DBusConnection: @unchecked Sendable {
    // Safety: `connection` is never reassigned; GDBusConnection is thread-safe (GIO documents it so).
    let connection: OpaquePointer

    private init(connection: OpaquePointer) {
        // Its signals are dispatched on the default main context, whose loop then runs the main queue too.
        MainQueueIntegration.install()
        self.connection = connection
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(connection)) }

    /// The `GDBusConnection *`, for the GDBus calls Tether does not wrap (exporting an object, calling a
    /// method); valid as long as this object.
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// g_dbus_connection_flush_sync(bus.gdbusConnection, nil, nil)
    /// ```
    public var gdbusConnection: OpaquePointer { connection }

    /// The session bus of the user's login session (`g_bus_get_sync`, `DBUS_SESSION_BUS_ADDRESS`): the
    /// desktop's services and other apps. The connection is shared by the whole process.
    ///
    /// - Throws: ``DBusError/connectionFailed(_:)`` when there is no session bus (a headless machine
    ///   without `dbus-run-session`).
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// print(bus.uniqueName ?? "")   // :1.42
    /// ```
    public static func session() throws(DBusError) -> DBusConnection {
        try bus(G_BUS_TYPE_SESSION)
    }

    /// The system bus: system services (NetworkManager, UPower, systemd, logind).
    ///
    /// - Throws: ``DBusError/connectionFailed(_:)`` when there is no system bus (a container).
    ///
    /// ```swift
    /// let system = try DBusConnection.system()
    /// ```
    public static func system() throws(DBusError) -> DBusConnection {
        try bus(G_BUS_TYPE_SYSTEM)
    }

    /// A new connection to the message bus at `address` (`unix:path=…`, as `dbus-daemon --print-address`
    /// prints it) — a private bus, or a test's.
    ///
    /// - Throws: ``DBusError/connectionFailed(_:)``.
    ///
    /// ```swift
    /// let bus = try DBusConnection(address: "unix:path=/run/user/1000/bus")
    /// ```
    public convenience init(address: String) throws(DBusError) {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw .connectionFailed(Self.consume(error))
        }
        self.init(connection: connection)
    }

    private static func bus(_ type: GBusType) throws(DBusError) -> DBusConnection {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(type, nil, &error) else {
            throw .connectionFailed(consume(error))
        }
        return DBusConnection(connection: connection)
    }

    /// This connection's unique name on the bus (`:1.42`).
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// print(bus.uniqueName ?? "not a message bus connection")
    /// ```
    public var uniqueName: String? {
        g_dbus_connection_get_unique_name(connection).map { String(cString: $0) }
    }

    /// A remote object's property: its current value (`org.freedesktop.DBus.Properties.Get`), then its value
    /// after each change the object announces (`PropertiesChanged`); a property announced as invalidated
    /// (changed without its value) is fetched again — zbus's `receive_<property>_changed()`, RAC's
    /// `RACObserve` across processes. A repeated value is not sent again.
    ///
    /// The signal fails with ``DBusError/remote(name:message:)`` when the object cannot be read (no such
    /// service, object or property; access denied), and with
    /// ``DBusError/typeMismatch(member:expected:actual:)`` when the value is not a `Value`. Disposing
    /// unsubscribes and cancels a `Get` in flight (`GCancellable`).
    ///
    /// - Parameters:
    ///   - name: The property's name (`State`).
    ///   - interface: The interface that declares it (`org.freedesktop.NetworkManager`).
    ///   - path: The object's path (`/org/freedesktop/NetworkManager`).
    ///   - destination: The bus name of the service that owns the object (`org.freedesktop.NetworkManager`).
    ///   - type: The Swift type of the value; its ``GVariantConvertible/variantType`` is the property's
    ///     D-Bus type (`u` for `UInt32`).
    /// - Throws: ``DBusError/invalidName(kind:value:)`` at the call for a malformed name or path.
    ///
    /// ```swift
    /// let bus = try DBusConnection.system()
    /// let onBattery = try bus.property(
    ///     "OnBattery", interface: "org.freedesktop.UPower", path: "/org/freedesktop/UPower",
    ///     on: "org.freedesktop.UPower", as: Bool.self)
    /// onBattery.subscribe(next: { print($0 ? "on battery" : "on mains") }, error: { print($0) })
    /// ```
    /// Marble: `Get` → `a`, then `PropertiesChanged` with `b`, then one that invalidates it (fetched: `c`)
    /// → `a-b-c`.
    public func property<Value: GVariantConvertible>(
        _ name: String, interface: String, path: String, on destination: String, as type: Value.Type = Value.self
    ) throws(DBusError) -> Signal<Value, DBusError> {
        try Self.check(destination, .busName)
        try Self.check(path, .objectPath)
        try Self.check(interface, .interface)
        try Self.check(name, .member)
        let address = PropertyAddress(destination: destination, path: path, interface: interface, name: name)
        let connection = self
        return Signal<Value, DBusError> { observer in
            let watch = PropertyWatch(
                connection: connection, address: address,
                deliver: { variant in
                    guard let value = Value(variant: variant) else {
                        let actual = String(cString: g_variant_get_type_string(variant))
                        return .typeMismatch(member: address.name, expected: Value.variantType, actual: actual)
                    }
                    observer.send(value)
                    return nil
                }, fail: { observer.send(event: .error($0)) })
            watch.start()
            return watch
        }
        .distinctUntilChanged()
    }

    /// A remote object's property that follows its service through restarts: `nil` while nobody owns
    /// `destination` (the service is not running yet, or stopped), then the property's values from the
    /// process that owns it (as ``property(_:interface:path:on:as:)``), and again from the next owner after a
    /// restart — what a desktop app shows for a service that comes and goes, where ``property(_:interface:path:on:as:)``
    /// fails for good when the service is not running and keeps its last value, with no sign, when it stops.
    ///
    /// It follows ``nameOwner(of:)`` and reads the property from each owner in turn (by its unique name, so a
    /// new owner is a new subscription and nothing of the old one is mixed in). An error that means the owner
    /// went away meanwhile (`ServiceUnknown`, `NameHasNoOwner`, `NoReply`, `Disconnected`, ``DBusError/timedOut``)
    /// is sent as `nil` — the name's owner change follows; any other error (no such object or property, access
    /// denied, ``DBusError/typeMismatch(member:expected:actual:)``) fails the signal, as it would not go away by
    /// itself. A repeated value is not sent again.
    ///
    /// - Throws: ``DBusError/invalidName(kind:value:)`` at the call for a malformed name or path.
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// let playing = try bus.propertyFollowingOwner(
    ///     "PlaybackStatus", interface: "org.mpris.MediaPlayer2.Player", path: "/org/mpris/MediaPlayer2",
    ///     on: "org.mpris.MediaPlayer2.vlc", as: String.self)
    /// playing.subscribe(next: { print($0 ?? "VLC is not running") }, error: { print($0) })
    /// ```
    /// Marble: not running, started (`a`), changed (`b`), stopped, restarted (`c`) → `nil-a-b-nil-c`.
    public func propertyFollowingOwner<Value: GVariantConvertible>(
        _ name: String, interface: String, path: String, on destination: String, as type: Value.Type = Value.self
    ) throws(DBusError) -> Signal<Value?, DBusError> {
        try Self.check(path, .objectPath)
        try Self.check(interface, .interface)
        try Self.check(name, .member)
        let connection = self
        return try nameOwner(of: destination).promoteError(DBusError.self)
            .flatMapLatest { owner -> Signal<Value?, DBusError> in
                // The names were checked above: reading from a unique name does not throw.
                guard let owner,
                    let values = try? connection.property(name, interface: interface, path: path, on: owner, as: type)
                else { return Signal(value: nil) }
                return values.map { Optional($0) }.catch { error -> Signal<Value?, DBusError> in
                    Self.meansOwnerLeft(error) ? Signal(value: nil) : Signal(error: error)
                }
            }
            .distinctUntilChanged()
    }

    /// Whether `error` is what a call to a name's owner gets when the owner has just gone away.
    static func meansOwnerLeft(_ error: DBusError) -> Bool {
        switch error {
        case .timedOut: true
        case .remote(let name, _):
            [
                "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
            ].contains(name)
        default: false
        }
    }

    /// The owner of a bus name: its unique name while the name has an owner, `nil` while it has none — first
    /// the current owner, then each change (`g_bus_watch_name_on_connection`). Follow a service starting and
    /// stopping, a media player appearing.
    ///
    /// - Throws: ``DBusError/invalidName(kind:value:)`` at the call for a malformed bus name.
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// try bus.nameOwner(of: "org.mpris.MediaPlayer2.vlc")
    ///     .subscribe(next: { print($0 == nil ? "VLC is not running" : "VLC is running") })
    /// ```
    /// Marble: not owned, then started, then stopped → `nil-":1.7"-nil`.
    public func nameOwner(of name: String) throws(DBusError) -> Signal<String?, Never> {
        try Self.check(name, .busName)
        let connection = self
        return Signal<String?, Never> { observer in
            let watch = NameWatch(observer: observer)
            watch.start(connection: connection, name: name)
            return watch
        }
    }

    // MARK: - Support

    /// Throws `invalidName` unless `value` is a valid name of `kind`.
    static func check(_ value: String, _ kind: DBusError.NameKind) throws(DBusError) {
        let valid: Bool =
            switch kind {
            case .busName: g_dbus_is_name(value) != 0
            case .objectPath: g_variant_is_object_path(value) != 0
            case .interface: g_dbus_is_interface_name(value) != 0
            case .member: g_dbus_is_member_name(value) != 0
            }
        if !valid { throw .invalidName(kind: kind, value: value) }
    }

    /// The message of `error`, which is freed.
    static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        var error = error
        defer { g_clear_error(&error) }
        return error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// Where a property lives.
struct PropertyAddress: Sendable {
    let destination: String
    let path: String
    let interface: String
    let name: String
}
