import Foundation
import TetherGio
import XCTest

/// A D-Bus service in this process, on its own connection to the private bus: the object
/// `/org/tether/Test` with the interface `org.tether.Test` (properties `Name`: `s`, read-write; `Count`:
/// `u`, read-only; methods `Greet(s) → s`, `Add(i, i) → i`, `Refuse` (an error reply) and `Hang` (no reply
/// until the service stops)), owning `org.tether.TestService`. Its callbacks run on the default main context.
final class TestService: @unchecked Sendable {
    // Safety: `name` and `count` are only touched on the main thread (the tests', and GDBus's callbacks on
    // the default main context, which the tests iterate there).
    static let busName = "org.tether.TestService"
    static let path = "/org/tether/Test"
    static let interface = "org.tether.Test"
    static let xml = """
        <node>
          <interface name="org.tether.Test">
            <property name="Name" type="s" access="readwrite"/>
            <property name="Count" type="u" access="read"/>
            <method name="Greet"><arg name="name" type="s" direction="in"/><arg type="s" direction="out"/></method>
            <method name="Add">
              <arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="i" direction="out"/>
            </method>
            <method name="Refuse"/>
            <method name="Hang"/>
          </interface>
        </node>
        """

    let connection: DBusConnection
    private let raw: OpaquePointer
    var name = "initial"
    var count: UInt32 = 0
    private var registrationID: guint = 0
    /// `Hang` calls not answered yet (their invocations).
    private(set) var hanging: [OpaquePointer] = []
    /// The methods called, in order.
    private(set) var calls: [String] = []
    /// How many times a property was read (`Properties.Get`).
    private(set) var reads = 0

    init(address: String) throws {
        connection = try DBusConnection(address: address)
        raw = connection.gdbusConnection
        var error: UnsafeMutablePointer<GError>?
        let node = g_dbus_node_info_new_for_xml(Self.xml, &error)!
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.get_property = { _, _, _, _, property, _, data in
            let service = Unmanaged<TestService>.fromOpaque(data!).takeUnretainedValue()
            service.reads += 1
            switch String(cString: property!) {
            case "Name": return g_variant_new_string(service.name)
            default: return g_variant_new_uint32(service.count)
            }
        }
        vtable.set_property = { _, _, _, _, property, value, _, data in
            let service = Unmanaged<TestService>.fromOpaque(data!).takeUnretainedValue()
            guard String(cString: property!) == "Name", let text = String(variant: value!) else { return 0 }
            service.setName(text)
            return 1
        }
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            let service = Unmanaged<TestService>.fromOpaque(data!).takeUnretainedValue()
            service.called(String(cString: method!), parameters!, invocation!)
        }
        registrationID = g_dbus_connection_register_object(
            raw, Self.path, node.pointee.interfaces[0], &vtable, Unmanaged.passUnretained(self).toOpaque(), nil,
            &error)
        precondition(registrationID != 0, "register_object failed")
        call("RequestName", "('\(Self.busName)', uint32 4)")
    }

    private func called(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        calls.append(method)
        switch method {
        case "Greet":
            let name = g_variant_get_child_value(parameters, 0)!
            defer { g_variant_unref(name) }
            var reply: [OpaquePointer?] = [g_variant_new_string("Hello, " + String(variant: name)!)]
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&reply, 1))
        case "Add":
            let first = g_variant_get_child_value(parameters, 0)!
            let second = g_variant_get_child_value(parameters, 1)!
            defer {
                g_variant_unref(first)
                g_variant_unref(second)
            }
            var reply: [OpaquePointer?] = [g_variant_new_int32(Int32(variant: first)! + Int32(variant: second)!)]
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&reply, 1))
        case "Refuse":
            g_dbus_method_invocation_return_dbus_error(invocation, "org.tether.Error.Refused", "not today")
        default:
            hanging.append(invocation)  // keeps the reference the call gave us
        }
    }

    /// Changes `Name` and announces it with its value.
    func setName(_ newName: String) {
        name = newName
        emit("('org.tether.Test', {'Name': <'\(newName)'>}, @as [])")
    }

    /// Changes `Count` and announces only that it changed (invalidated: clients fetch it again).
    func setCountInvalidating(_ newCount: UInt32) {
        count = newCount
        emit("('org.tether.Test', @a{sv} {}, ['Count'])")
    }

    /// Emits a `PropertiesChanged` whose arguments are given in GVariant text format.
    func emit(_ arguments: String) {
        var error: UnsafeMutablePointer<GError>?
        let parameters = g_variant_parse(nil, arguments, nil, nil, &error)
        precondition(parameters != nil, "bad GVariant text \(arguments)")
        g_dbus_connection_emit_signal(
            raw, nil, Self.path, "org.freedesktop.DBus.Properties", "PropertiesChanged", parameters, &error)
    }

    /// Calls a method of the bus itself (`org.freedesktop.DBus`) synchronously.
    func call(_ method: String, _ arguments: String) {
        var error: UnsafeMutablePointer<GError>?
        let parameters = g_variant_parse(nil, arguments, nil, nil, &error)
        let reply = g_dbus_connection_call_sync(
            raw, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, parameters, nil,
            G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        precondition(reply != nil, "\(method) failed")
        g_variant_unref(reply)
    }

    func stop() {
        for invocation in hanging { g_dbus_method_invocation_return_value(invocation, nil) }
        hanging = []
        for invocation in hanging { g_dbus_method_invocation_return_value(invocation, nil) }
        hanging = []
        if registrationID != 0 { g_dbus_connection_unregister_object(raw, registrationID) }
        registrationID = 0
        g_dbus_connection_close_sync(raw, nil, nil)
    }
}
