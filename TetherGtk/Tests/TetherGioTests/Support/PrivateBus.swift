import Foundation
import TetherGio
import XCTest

/// A private D-Bus message bus for one test class: `dbus-daemon --session --nofork`, started by the tests
/// (Debian package `dbus`), stopped when the class ends.
final class PrivateBus {
    let address: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dbus-daemon", "--session", "--nofork", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else { throw BusError.noAddress(address) }
    }

    enum BusError: Error { case noAddress(String) }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Starts `gdbus ARGUMENTS… --session` in another process, its session bus this one; the test pumps the
    /// main context while it runs (the in-process service answers it there), then checks its exit status
    /// with `finish`. (`--session` rather than `--address`: with `--address`, gdbus does not register with
    /// the bus, and the bus does not route its signals to other clients.)
    func gdbus(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(
            "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + address, "gdbus"] + arguments + ["--session"])
    }
}

/// A process run without blocking the main context; its output is collected as it comes.
final class RunningProcess: Sendable {
    private let process: Process
    private let output = Pipe()
    private let collected = Locked(Data())

    init(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        let collected = collected
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            collected.modify { $0.append(chunk) }
        }
        try process.run()
        self.process = process
    }

    var isRunning: Bool { process.isRunning }

    /// Stops a process that runs until stopped (`gdbus monitor`) and waits for it.
    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }

    /// What the process printed so far.
    var outputSoFar: String { String(decoding: collected.load(), as: UTF8.self) }

    /// Pumps the main context until the process exits (terminating it if the watchdog fires); returns its
    /// exit status and output.
    func finish(file: StaticString = #filePath, line: UInt = #line) -> (code: Int32, output: String) {
        if !pump(until: { !process.isRunning }, file: file, line: line) { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        collected.modify { $0.append(rest) }
        return (process.terminationStatus, outputSoFar)
    }
}

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
