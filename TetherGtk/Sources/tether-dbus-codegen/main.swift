import Foundation
import Synchronization
import TetherDBusCodegen
import TetherGio

// Prints the Swift that TetherDBusCodegen generates from D-Bus introspection XML: a typed client and a service
// protocol per interface. The XML comes from a file (`/usr/share/dbus-1/interfaces/*.xml`) or from a live
// object's `Introspect()` reply, read here with TetherGio. (The build-tool plugin runs
// TetherDBusCodegenPluginTool, the same command for files only.)
//
//   tether-dbus-codegen /usr/share/dbus-1/interfaces/org.freedesktop.UPower.Device.xml > UPowerDevice.swift
//   tether-dbus-codegen --bus system --dest org.freedesktop.UPower --path /org/freedesktop/UPower

/// The introspection XML of a live object: its `Introspect()` reply, waited for in GLib's main loop.
func introspect(bus: String, destination: String, path: String) throws -> String {
    let connection: DBusConnection
    switch bus {
    case "session": connection = try DBusConnection.session()
    case "system": connection = try DBusConnection.system()
    default: connection = try DBusConnection(address: bus)
    }
    let reply = Mutex<Result<String, DBusError>?>(nil)
    let call = try connection.call(
        "Introspect", interface: "org.freedesktop.DBus.Introspectable", path: path, on: destination,
        returning: String.self
    ).subscribe(
        next: { xml in reply.withLock { $0 = .success(xml) } },
        error: { error in reply.withLock { $0 = .failure(error) } })
    defer { call.dispose() }
    while true {
        if let result = reply.withLock({ $0 }) { return try result.get() }
        g_main_context_iteration(nil, 1)
    }
}

exit(DBusCodegenCommand.run(Array(CommandLine.arguments.dropFirst()), introspect: introspect))
