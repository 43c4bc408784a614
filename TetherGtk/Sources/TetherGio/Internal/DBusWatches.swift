import CGio
import Synchronization
import TetherGObject

/// One subscription to a remote property: a `PropertiesChanged` match and the `Get` calls in flight.
///
/// GDBus runs its callbacks on the main context that was the subscribing thread's default, one at a time;
/// `state` is still guarded by a mutex because that context may be iterated by another thread than the
/// one that disposes. The GLib subscription holds a reference to the watch (released by its destroy
/// notify at unsubscription), and so does each `Get` in flight (released when its callback runs — always,
/// even when cancelled).
/// Not generic (GLib's C callbacks cannot be): the value's type lives in `deliver`.
final class PropertyWatch: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex, held only around bookkeeping and GLib's subscribe call, never
    // while a value is sent; the other properties are immutable, and GDBusConnection and GCancellable are
    // thread-safe.
    private let connection: DBusConnection
    private let address: PropertyAddress
    /// Converts the variant and sends it; returns the error when it is not of the expected type.
    private let deliverVariant: @Sendable (OpaquePointer) -> DBusError?
    private let sendFailure: @Sendable (DBusError) -> Void
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let state = Locked<(subscriptionID: guint, disposed: Bool, hasValue: Bool)>((0, false, false))

    init(
        connection: DBusConnection, address: PropertyAddress,
        deliver: @escaping @Sendable (OpaquePointer) -> DBusError?,
        fail: @escaping @Sendable (DBusError) -> Void
    ) {
        self.connection = connection
        self.address = address
        deliverVariant = deliver
        sendFailure = fail
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Subscribes to `PropertiesChanged` for the property's interface, then asks for the current value.
    func start() {
        let started: Bool = state.withLock { state in
            if state.disposed { return false }
            let callback: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
                let watch = Unmanaged<PropertyWatch>.fromOpaque(data!).takeUnretainedValue()
                if let parameters { watch.propertiesChanged(parameters) }
            }
            state.subscriptionID = g_dbus_connection_signal_subscribe(
                connection.connection, address.destination, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                address.path, address.interface, G_DBUS_SIGNAL_FLAGS_NONE, callback,
                Unmanaged.passRetained(self).toOpaque(),
                { data in Unmanaged<PropertyWatch>.fromOpaque(data!).release() })
            return true
        }
        if started { fetch() }
    }

    func dispose() {
        let subscriptionID: guint? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            return state.subscriptionID
        }
        guard let subscriptionID else { return }
        g_cancellable_cancel(cancellable)
        if subscriptionID != 0 { g_dbus_connection_signal_unsubscribe(connection.connection, subscriptionID) }
    }

    /// `org.freedesktop.DBus.Properties.Get(interface, name)`, asynchronously.
    private func fetch() {
        var arguments: [OpaquePointer?] = [
            g_variant_new_string(address.interface), g_variant_new_string(address.name),
        ]
        let parameters = g_variant_new_tuple(&arguments, 2)
        let replyType = g_variant_type_new("(v)")
        defer { g_variant_type_free(replyType) }
        g_dbus_connection_call(
            connection.connection, address.destination, address.path, "org.freedesktop.DBus.Properties", "Get",
            parameters, replyType, G_DBUS_CALL_FLAGS_NONE, -1, cancellable,
            { source, result, data in
                let watch = Unmanaged<PropertyWatch>.fromOpaque(data!).takeRetainedValue()
                watch.received(source, result)
            }, Unmanaged.passRetained(self).toOpaque())
    }

    /// The reply to a `Get`.
    private func received(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_finish(connection.connection, result, &error) else {
            if let error, error.pointee.domain == g_io_error_quark(),
                error.pointee.code == gint(G_IO_ERROR_CANCELLED.rawValue)
            {
                g_error_free(error)
                return
            }
            fail(Self.remoteError(error))
            return
        }
        defer { g_variant_unref(reply) }
        let boxed = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(boxed) }
        let value = g_variant_get_variant(boxed)!
        defer { g_variant_unref(value) }
        state.withLock { $0.hasValue = true }
        deliver(value)
    }

    /// A `PropertiesChanged(interface, changed, invalidated)` signal for the object's interface.
    private func propertiesChanged(_ parameters: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(parameters)) == "(sa{sv}as)" else { return }
        let (disposed, hasValue) = state.withLock { ($0.disposed, $0.hasValue) }
        if disposed { return }
        let changed = g_variant_get_child_value(parameters, 1)
        defer { g_variant_unref(changed) }
        // Before the first `Get` answers, a change is older than its answer: the service sent it first.
        if hasValue, let value = g_variant_lookup_value(changed, address.name, nil) {
            defer { g_variant_unref(value) }
            deliver(value)
        }
        let invalidated = g_variant_get_child_value(parameters, 2)
        defer { g_variant_unref(invalidated) }
        if [String](variant: invalidated!)?.contains(address.name) == true { fetch() }
    }

    private func deliver(_ variant: OpaquePointer) {
        if let error = deliverVariant(variant) { fail(error) }
    }

    private func fail(_ error: DBusError) {
        if isDisposed { return }
        sendFailure(error)
        dispose()
    }

    /// The D-Bus error name and message of a failed call; frees `error`.
    static func remoteError(_ error: UnsafeMutablePointer<GError>?) -> DBusError {
        guard let error else { return .remote(name: "org.freedesktop.DBus.Error.Failed", message: "unknown error") }
        defer { g_error_free(error) }
        if g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_TIMED_OUT.rawValue)) != 0 { return .timedOut }
        let remoteName = g_dbus_error_get_remote_error(error)
        defer { g_free(remoteName) }
        if let remoteName,
            ["org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.NoReply"]
                .contains(String(cString: remoteName))
        {
            return .timedOut
        }
        g_dbus_error_strip_remote_error(error)
        return .remote(
            name: remoteName.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
            message: error.pointee.message.map { String(cString: $0) } ?? "")
    }
}

/// One subscription to a bus name's owner (`g_bus_watch_name_on_connection`); the watcher holds a
/// reference to it, released by its destroy notify after `g_bus_unwatch_name`.
final class NameWatch: Disposable, @unchecked Sendable {
    // Safety: `state` is guarded by its mutex, held only around bookkeeping and GLib's watch call, never
    // while a value is sent; `observer` is immutable and thread-safe.
    private let observer: Observer<String?, Never>
    private let state = Locked<(watcherID: guint, disposed: Bool)>((0, false))

    init(observer: Observer<String?, Never>) {
        self.observer = observer
    }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    func start(connection: DBusConnection, name: String) {
        state.withLock { state in
            if state.disposed { return }
            state.watcherID = g_bus_watch_name_on_connection(
                connection.connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                { _, _, owner, data in
                    let watch = Unmanaged<NameWatch>.fromOpaque(data!).takeUnretainedValue()
                    watch.send(owner.map { String(cString: $0) })
                },
                { _, _, data in
                    Unmanaged<NameWatch>.fromOpaque(data!).takeUnretainedValue().send(nil)
                }, Unmanaged.passRetained(self).toOpaque(),
                { data in Unmanaged<NameWatch>.fromOpaque(data!).release() })
        }
    }

    private func send(_ owner: String?) {
        if isDisposed { return }
        observer.send(owner)
    }

    func dispose() {
        let watcherID: guint? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            return state.watcherID
        }
        if let watcherID, watcherID != 0 { g_bus_unwatch_name(watcherID) }
    }
}

/// One method call in flight; disposing cancels it. The call holds a reference to it until its callback
/// runs (always, even when cancelled).
final class MethodCall: Disposable, @unchecked Sendable {
    // Safety: the closures and `cancellable` are immutable and thread-safe (GCancellable is); `disposed` is
    // atomic. The reply arrives on the main context's thread: `init` ends with a releasing store of
    // `disposed` and `received` starts with an acquiring load of it, so the fields written on the calling
    // thread are visible there through Tether's own synchronization, not only through GLib's queues
    // (which Thread Sanitizer cannot see: GLib is not instrumented).
    private let handle: @Sendable (OpaquePointer) -> DBusError?
    private let sendFailure: @Sendable (DBusError) -> Void
    private let connection: DBusConnection
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let disposed = Atomic<Bool>(false)

    private init(
        connection: DBusConnection, handle: @escaping @Sendable (OpaquePointer) -> DBusError?,
        fail: @escaping @Sendable (DBusError) -> Void
    ) {
        self.connection = connection
        self.handle = handle
        self.sendFailure = fail
        cancellable = g_cancellable_new()
        disposed.store(false, ordering: .releasing)  // publishes the fields (see the notes above)
    }

    deinit { g_object_unref(cancellable) }

    /// Makes the call; `handle` gets the reply (and returns an error when it is not what was expected).
    static func start(
        _ request: MethodRequest, handle: @escaping @Sendable (OpaquePointer) -> DBusError?,
        fail: @escaping @Sendable (DBusError) -> Void
    ) -> MethodCall {
        let call = MethodCall(connection: request.connection, handle: handle, fail: fail)
        g_dbus_connection_call(
            request.connection.connection, request.destination, request.path, request.interface, request.method,
            request.parameters(), nil, G_DBUS_CALL_FLAGS_NONE, request.timeoutMilliseconds, call.cancellable,
            { _, result, data in
                Unmanaged<MethodCall>.fromOpaque(data!).takeRetainedValue().received(result)
            }, Unmanaged.passRetained(call).toOpaque())
        return call
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        g_cancellable_cancel(cancellable)
    }

    private func received(_ result: OpaquePointer?) {
        // Pairs with the release at the end of `init`, before any field is read on this thread.
        let disposedBeforeReply = isDisposed
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_finish(connection.connection, result, &error)
        if disposedBeforeReply || isDisposed {
            if let reply { g_variant_unref(reply) }
            g_clear_error(&error)
            return
        }
        guard let reply else {
            sendFailure(PropertyWatch.remoteError(error))
            return
        }
        defer { g_variant_unref(reply) }
        if let failure = handle(reply) { sendFailure(failure) }
    }
}
