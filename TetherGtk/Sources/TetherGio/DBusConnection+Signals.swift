import CGio
import Synchronization
import TetherGObject

extension DBusConnection {
    /// A D-Bus signal's emissions as a signal of their arguments, typed: `as: String.self, UInt32.self`
    /// makes a `Signal<(String, UInt32), DBusError>` — the D-Bus form of a notification. It is hot: each
    /// subscription adds a match rule and receives the emissions that follow, until it is disposed.
    ///
    /// An emission whose arguments are not of those types fails the signal with
    /// ``DBusError/typeMismatch(member:expected:actual:)`` (not skipped silently).
    ///
    /// - Parameters:
    ///   - member: The D-Bus signal's name (`PropertiesChanged`, `NameOwnerChanged`).
    ///   - interface: Its interface.
    ///   - path: The emitting object's path; `nil` for any object.
    ///   - sender: The bus name of the emitting service (well-known or unique); `nil` for any sender.
    ///   - types: The Swift types of the arguments, in order.
    /// - Throws: ``DBusError/invalidName(kind:value:)`` at the call for a malformed name or path.
    ///
    /// ```swift
    /// let bus = try DBusConnection.session()
    /// let ownerChanges = try bus.signal(
    ///     "NameOwnerChanged", interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
    ///     from: "org.freedesktop.DBus", as: String.self, String.self, String.self)
    /// ownerChanges.subscribe(next: { name, old, new in print(name, old, "→", new) }, error: { print($0) })
    /// ```
    public func signal<each Argument: GVariantConvertible>(
        _ member: String, interface: String, path: String? = nil, from sender: String? = nil,
        as types: repeat (each Argument).Type
    ) throws(DBusError) -> Signal<(repeat each Argument), DBusError> {
        try Self.check(member, .member)
        try Self.check(interface, .interface)
        if let path { try Self.check(path, .objectPath) }
        if let sender { try Self.check(sender, .busName) }
        var expected = "("
        for type in repeat (each Argument).self { expected += type.variantType }
        expected += ")"
        let match = SignalMatch(sender: sender, interface: interface, member: member, path: path)
        let connection = self
        let signature = expected
        return Signal<(repeat each Argument), DBusError> { observer in
            let watch = SignalWatch(connection: connection, match: match) { parameters in
                guard let values = Self.arguments(parameters, as: repeat (each Argument).self) else {
                    let actual = String(cString: g_variant_get_type_string(parameters))
                    return .typeMismatch(member: member, expected: signature, actual: actual)
                }
                observer.send((repeat each values))
                return nil
            } fail: {
                observer.send(event: .error($0))
            }
            watch.start()
            return watch
        }
    }

    /// Reads a tuple variant as the types given, or `nil` when its children are not those.
    static func arguments<each Argument: GVariantConvertible>(
        _ tuple: OpaquePointer, as types: repeat (each Argument).Type
    ) -> (repeat each Argument)? {
        var count = 0
        for _ in repeat (each Argument).self { count += 1 }
        guard g_variant_is_container(tuple) != 0, Int(g_variant_n_children(tuple)) == count else { return nil }
        var index = 0
        func next<Value: GVariantConvertible>(_ type: Value.Type) throws(DBusError) -> Value {
            let child = g_variant_get_child_value(tuple, gsize(index))!
            defer { g_variant_unref(child) }
            index += 1
            guard let value = Value(variant: child) else { throw .invalidArgument("") }
            return value
        }
        do throws(DBusError) {
            return (repeat try next((each Argument).self))
        } catch {
            return nil
        }
    }
}

/// What a signal subscription matches.
struct SignalMatch: Sendable {
    let sender: String?
    let interface: String
    let member: String
    let path: String?
}

/// One subscription to a D-Bus signal (`g_dbus_connection_signal_subscribe`), which holds a reference to it
/// until unsubscribed (its destroy notify releases it).
final class SignalWatch: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex, held only around bookkeeping and GLib's subscribe call; the
    // closures are immutable and `@Sendable`.
    private let connection: DBusConnection
    private let match: SignalMatch
    private let handle: @Sendable (OpaquePointer) -> DBusError?
    private let sendFailure: @Sendable (DBusError) -> Void
    private let state = Locked<(subscriptionID: guint, disposed: Bool)>((0, false))

    init(
        connection: DBusConnection, match: SignalMatch, handle: @escaping @Sendable (OpaquePointer) -> DBusError?,
        fail: @escaping @Sendable (DBusError) -> Void
    ) {
        self.connection = connection
        self.match = match
        self.handle = handle
        self.sendFailure = fail
    }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    func start() {
        state.withLock { state in
            if state.disposed { return }
            state.subscriptionID = g_dbus_connection_signal_subscribe(
                connection.connection, match.sender, match.interface, match.member, match.path, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, parameters, data in
                    let watch = Unmanaged<SignalWatch>.fromOpaque(data!).takeUnretainedValue()
                    if let parameters { watch.received(parameters) }
                }, Unmanaged.passRetained(self).toOpaque(),
                { data in Unmanaged<SignalWatch>.fromOpaque(data!).release() })
        }
    }

    private func received(_ parameters: OpaquePointer) {
        if isDisposed { return }
        if let failure = handle(parameters) {
            sendFailure(failure)
            dispose()
        }
    }

    func dispose() {
        let subscriptionID: guint? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            return state.subscriptionID
        }
        if let subscriptionID, subscriptionID != 0 {
            g_dbus_connection_signal_unsubscribe(connection.connection, subscriptionID)
        }
    }
}
