import Foundation
import TetherGio

/// The benchmark's D-Bus service, run in a second process (`tether-gio-bench --serve ADDRESS`) so that its
/// work is not on the measured process's cores' clock: it owns `org.tether.Bench` and exports
/// `/org/tether/Bench` with the property `Count` (`u`) and the method `Burst(u count, u first)`, which sets
/// `Count` to `first`, `first + 1`, … announcing each value with `PropertiesChanged`, then replies. Plain
/// GDBus: the service is the same for both contenders.
enum Service {
    static let busName = "org.tether.Bench"
    static let path = "/org/tether/Bench"
    static let interface = "org.tether.Bench"
    static let xml = """
        <node><interface name="org.tether.Bench">
          <property name="Count" type="u" access="read"/>
          <method name="Burst"><arg type="u" direction="in"/><arg type="u" direction="in"/></method>
        </interface></node>
        """

    /// The last value of `Count` (touched only on the main thread, by GDBus's callbacks).
    nonisolated(unsafe) static var count: UInt32 = 0

    static func serve(address: String) -> Never {
        guard let bus = try? DBusConnection(address: address) else {
            FileHandle.standardError.write(Data("tether-gio-bench: the service cannot connect to \(address)\n".utf8))
            exit(1)
        }
        let connection = bus.gdbusConnection
        var error: UnsafeMutablePointer<GError>?
        let node = g_dbus_node_info_new_for_xml(xml, &error)!
        var vtable = GDBusInterfaceVTable()
        vtable.get_property = { _, _, _, _, _, _, _ in g_variant_new_uint32(Service.count) }
        vtable.method_call = { connection, _, _, _, _, parameters, invocation, _ in
            var burst: guint32 = 0
            var first: guint32 = 0
            let countChild = g_variant_get_child_value(parameters, 0)!
            let firstChild = g_variant_get_child_value(parameters, 1)!
            burst = g_variant_get_uint32(countChild)
            first = g_variant_get_uint32(firstChild)
            g_variant_unref(countChild)
            g_variant_unref(firstChild)
            for index in 0..<burst {
                Service.count = first &+ index
                Service.announce(connection!)
            }
            g_dbus_method_invocation_return_value(invocation, nil)
        }
        let id = g_dbus_connection_register_object(
            connection, path, node.pointee.interfaces[0], &vtable, nil, nil, &error)
        precondition(id != 0, "register_object failed")
        let name = try! bus.ownName(busName)
        withExtendedLifetime((bus, name)) {
            g_main_loop_run(g_main_loop_new(nil, 0))
        }
        exit(0)
    }

    /// `PropertiesChanged(org.tether.Bench, {'Count': <count>}, [])`.
    static func announce(_ connection: OpaquePointer) {
        var entry: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string("Count"), g_variant_new_variant(g_variant_new_uint32(count)))
        ]
        let changed = g_variant_new_array(tether_variant_type_string_variant_entry(), &entry, 1)
        var invalidated: [OpaquePointer?] = []
        var arguments: [OpaquePointer?] = [
            g_variant_new_string(interface), changed,
            g_variant_new_array(tether_variant_type_string(), &invalidated, 0),
        ]
        g_dbus_connection_emit_signal(
            connection, nil, path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            g_variant_new_tuple(&arguments, 3), nil)
    }
}
