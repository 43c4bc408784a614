import Foundation
import Synchronization
import TetherDBusCodegen
import TetherGio

// Prints the Swift that TetherDBusCodegen generates from D-Bus introspection XML: a typed client and a service
// protocol per interface. The XML comes from a file (`/usr/share/dbus-1/interfaces/*.xml`) or from a live
// object's `Introspect()` reply. The build-tool plugin runs it with --output.
//
//   tether-dbus-codegen /usr/share/dbus-1/interfaces/org.freedesktop.UPower.Device.xml > UPowerDevice.swift
//   tether-dbus-codegen --bus system --dest org.freedesktop.UPower --path /org/freedesktop/UPower

let usage = """
    usage: tether-dbus-codegen [--no-services] [--output FILE.swift] FILE.xml...
           tether-dbus-codegen [--no-services] [--output FILE.swift] --bus session|system|ADDRESS
                               --dest BUS_NAME --path OBJECT_PATH

    Prints (or writes to FILE.swift) Swift for the D-Bus interfaces described by introspection XML files, or by
    the Introspect() reply of the object at OBJECT_PATH owned by BUS_NAME. The standard interfaces
    (org.freedesktop.DBus.Properties, …) are left out. --bus takes a bus address (unix:path=…) too.

    """

/// Writes `text` to standard error and exits with `status`.
func stop(_ text: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(text.utf8))
    exit(status)
}

/// The introspection XML of a live object: its `Introspect()` reply, waited for in GLib's main loop.
func introspect(bus: String, destination: String, path: String) -> String {
    let connection: DBusConnection
    do {
        switch bus {
        case "session": connection = try DBusConnection.session()
        case "system": connection = try DBusConnection.system()
        default: connection = try DBusConnection(address: bus)
        }
    } catch {
        stop("tether-dbus-codegen: \(error)\n", status: 1)
    }
    let reply = Mutex<Result<String, DBusError>?>(nil)
    do {
        _ = try connection.call(
            "Introspect", interface: "org.freedesktop.DBus.Introspectable", path: path, on: destination,
            returning: String.self
        ).subscribe(
            next: { xml in reply.withLock { $0 = .success(xml) } },
            error: { error in reply.withLock { $0 = .failure(error) } })
    } catch {
        stop("tether-dbus-codegen: \(error)\n", status: 2)
    }
    while true {
        if let result = reply.withLock({ $0 }) {
            switch result {
            case .success(let xml): return xml
            case .failure(let error): stop("tether-dbus-codegen: \(destination) \(path): \(error)\n", status: 1)
            }
        }
        g_main_context_iteration(nil, 1)
    }
}

/// Reads the options, generates, writes. A function rather than top-level code, so that what it made is
/// freed before the process exits (LeakSanitizer, in CI's sanitized builds that run this tool through the
/// plugin, does not follow the enum payloads' tagged pointers held by globals and would report them).
func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var options = DBusCodegen.Options()
    var output: String?
    var bus: String?
    var destination: String?
    var path: String?
    var files: [String] = []
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        func value() -> String {
            guard !arguments.isEmpty else { stop("\(argument) needs a value\n\n" + usage, status: 2) }
            return arguments.removeFirst()
        }
        switch argument {
        case "--output", "-o": output = value()
        case "--bus": bus = value()
        case "--dest": destination = value()
        case "--path": path = value()
        case "--no-services": options.includesServices = false
        case "--help", "-h":
            print(usage, terminator: "")
            exit(0)
        default:
            if argument.hasPrefix("-") { stop("unknown option \(argument)\n\n" + usage, status: 2) }
            files.append(argument)
        }
    }

    var interfaces: [DBusInterfaceDescription] = []
    do {
        if let bus {
            guard let destination, let path, files.isEmpty else { stop(usage, status: 2) }
            interfaces = try DBusCodegen.parse(introspect(bus: bus, destination: destination, path: path))
        } else {
            guard !files.isEmpty, destination == nil, path == nil else { stop(usage, status: 2) }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    stop("tether-dbus-codegen: cannot read \(file)\n", status: 1)
                }
                do {
                    interfaces += try DBusCodegen.parse(String(decoding: data, as: UTF8.self))
                } catch {
                    stop("tether-dbus-codegen: \(file): \(error)\n", status: 1)
                }
            }
        }
        let swift = try DBusCodegen.generate(interfaces, options: options)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(swift.utf8)) else {
                stop("tether-dbus-codegen: cannot write \(output)\n", status: 1)
            }
        } else {
            FileHandle.standardOutput.write(Data(swift.utf8))
        }
    } catch {
        stop("tether-dbus-codegen: \(error)\n", status: 1)
    }
}

main()
