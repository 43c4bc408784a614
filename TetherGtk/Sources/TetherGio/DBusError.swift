/// Why a D-Bus connection, name or call failed — checked before GDBus would log a critical for a malformed
/// name, or reported from the bus and the remote object.
///
/// ```swift
/// do {
///     let bus = try DBusConnection.session()
///     _ = try bus.property("Name", interface: "not an interface", path: "/org/example", on: "org.example.App",
///         as: String.self)
/// } catch .invalidName(let kind, let value) {
///     print("not a valid \(kind): \(value)")
/// } catch {
///     print(error)
/// }
/// ```
public enum DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The connection could not be made (no bus at the address, no `DBUS_SESSION_BUS_ADDRESS`, refused).
    case connectionFailed(String)
    /// A bus name, object path, interface name or member name is malformed (`kind` says which).
    case invalidName(kind: NameKind, value: String)
    /// The remote side answered with an error: `name` is the D-Bus error name
    /// (`org.freedesktop.DBus.Error.ServiceUnknown`, `…UnknownProperty`…), `message` its text.
    case remote(name: String, message: String)
    /// A property's value, or a method's reply, does not have the GVariant type the Swift type reads
    /// (`member` is the property's or the method's name; `expected` and `actual` are GVariant type
    /// strings).
    case typeMismatch(member: String, expected: String, actual: String)
    /// No reply came in time: the call's `timeout` (GDBus's default, 25 s, when none is given) passed
    /// (`G_IO_ERROR_TIMED_OUT`), or the bus reported the D-Bus error `org.freedesktop.DBus.Error.Timeout`
    /// or `…NoReply`. A caller can retry, or tell the user the service does not answer.
    ///
    /// ```swift
    /// print(DBusError.timedOut)   // no reply within the call's timeout
    /// ```
    case timedOut
    /// A method argument cannot be sent as a GVariant (an `Int` beyond 32 bits, a string with a NUL
    /// character): `value` describes it.
    case invalidArgument(String)

    /// The kinds of D-Bus names.
    ///
    /// ```swift
    /// print(DBusError.NameKind.objectPath)   // objectPath
    /// ```
    public enum NameKind: String, Sendable {
        /// A unique (`:1.42`) or well-known (`org.freedesktop.NetworkManager`) bus name.
        case busName
        /// An object path (`/org/freedesktop/NetworkManager`).
        case objectPath
        /// An interface name (`org.freedesktop.NetworkManager`).
        case interface
        /// A member (method, signal or property) name (`State`).
        case member
    }

    /// A sentence naming what failed.
    ///
    /// ```swift
    /// print(DBusError.invalidName(kind: .objectPath, value: "relative/path"))
    /// ```
    public var description: String {
        switch self {
        case .connectionFailed(let message): "could not connect to the D-Bus bus: \(message)"
        case .invalidName(let kind, let value): "'\(value)' is not a valid D-Bus \(kind.rawValue)"
        case .remote(let name, let message): "\(name): \(message)"
        case .invalidArgument(let value): "\(value) cannot be sent as a D-Bus argument"
        case .timedOut: "no reply within the call's timeout"
        case .typeMismatch(let member, let expected, let actual):
            "the value of the D-Bus property or method '\(member)' has the type '\(actual)', not '\(expected)'"
        }
    }
}
