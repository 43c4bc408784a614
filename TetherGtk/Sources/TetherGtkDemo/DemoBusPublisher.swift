import Foundation
import TetherDemoModels
import TetherGtk

/// Publishes the demo's signed-in state on a D-Bus bus (the session bus in the app): it owns
/// `org.tether.GtkDemo` and exports `/org/tether/GtkDemo` (interface `org.tether.GtkDemo`) with the
/// read-only properties `SignedIn` (`b`) and `User` (`s`, the signed-in user's name, or empty), announced
/// with `PropertiesChanged`, and the D-Bus signal `SignedInAs(s)` at each successful sign-in. Watch it with
/// `gdbus monitor --session --dest org.tether.GtkDemo`.
@MainActor
public final class DemoBusPublisher {
    /// The bus name the demo owns.
    public nonisolated static let busName = "org.tether.GtkDemo"
    /// The exported object's path.
    public nonisolated static let path = "/org/tether/GtkDemo"
    /// The exported interface.
    public nonisolated static let interface = "org.tether.GtkDemo"
    private let bus: DBusConnection
    private let exported: any Disposable
    private let name: any Disposable

    /// Exports the state of `login` on `bus` and owns the demo's name there.
    public init(login: LoginViewModel, bus: DBusConnection) throws(DBusError) {
        self.bus = bus
        let signedInUsers = login.signIn.executionSignals.flatten().map(\.name)
        let user = Signal.merge([Signal(value: ""), signedInUsers])
        exported = try bus.export(
            path: Self.path, interface: Self.interface,
            properties: [.readOnly("SignedIn", user.map { !$0.isEmpty }), .readOnly("User", user)],
            signals: [.signal("SignedInAs", signedInUsers, as: String.self)])
        name = try bus.ownName(Self.busName)
    }

    /// Sends what is still queued for the bus (before the process exits).
    public func flush() {
        g_dbus_connection_flush_sync(bus.gdbusConnection, nil, nil)
    }

    isolated deinit {
        name.dispose()
        exported.dispose()
    }

    /// Connects to the session bus and publishes there, or explains why not (no session bus): the demo
    /// runs on without it.
    public static func publishOnSessionBus(
        login: LoginViewModel, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<DemoBusPublisher, DBusError> {
        // Without an address GIO would try X11 autolaunch (dbus-launch): not for a demo.
        guard environment["DBUS_SESSION_BUS_ADDRESS"].map({ !$0.isEmpty }) ?? false else {
            return .failure(.connectionFailed("DBUS_SESSION_BUS_ADDRESS is not set"))
        }
        return Result { () throws(DBusError) in try DemoBusPublisher(login: login, bus: DBusConnection.session()) }
    }
}
