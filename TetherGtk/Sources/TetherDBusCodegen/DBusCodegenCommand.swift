import Foundation

/// The command line of `tether-dbus-codegen`, shared by the command (which can also introspect a live object,
/// through TetherGio) and the build-tool plugin's tool (files only, so that a build that uses the plugin
/// builds nothing but this module for the host).
package enum DBusCodegenCommand {
    /// How a live object's introspection XML is read: `(bus, destination, path)` → its `Introspect()` reply.
    package typealias Introspect = (_ bus: String, _ destination: String, _ path: String) throws -> String

    package static let usage = """
        usage: tether-dbus-codegen [--no-services] [--output FILE.swift] FILE.xml...
               tether-dbus-codegen [--no-services] [--output FILE.swift] --bus session|system|ADDRESS
                                   --dest BUS_NAME --path OBJECT_PATH

        Prints (or writes to FILE.swift) Swift for the D-Bus interfaces described by introspection XML files, or by
        the Introspect() reply of the object at OBJECT_PATH owned by BUS_NAME. The standard interfaces
        (org.freedesktop.DBus.Properties, …) are left out. --bus takes a bus address (unix:path=…) too.

        """

    /// Runs the command with `arguments` (without the program's name); returns its exit status: 0, 1 for a
    /// file, an object or XML that fails, 2 for a usage error. Messages go to standard error. `introspect`
    /// is `nil` where `--bus` is not available.
    package static func run(_ arguments: [String], introspect: Introspect?) -> Int32 {
        var arguments = arguments
        var options = DBusCodegen.Options()
        var output: String?
        var live: (bus: String?, destination: String?, path: String?)
        var files: [String] = []
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            if argument == "--help" || argument == "-h" {
                FileHandle.standardOutput.write(Data(usage.utf8))
                return 0
            }
            if argument == "--no-services" {
                options.includesServices = false
                continue
            }
            guard argument.hasPrefix("-") else {
                files.append(argument)
                continue
            }
            guard ["--output", "-o", "--bus", "--dest", "--path"].contains(argument) else {
                return fail("unknown option \(argument)\n\n" + usage, status: 2)
            }
            guard !arguments.isEmpty else { return fail("\(argument) needs a value\n\n" + usage, status: 2) }
            let value = arguments.removeFirst()
            switch argument {
            case "--bus": live.bus = value
            case "--dest": live.destination = value
            case "--path": live.path = value
            default: output = value
            }
        }
        var sources: [(name: String, xml: String)] = []
        if let bus = live.bus {
            guard let introspect else { return fail("--bus is not available in this tool", status: 2) }
            guard let destination = live.destination, let path = live.path, files.isEmpty else {
                return fail(usage, status: 2)
            }
            do {
                sources.append(("\(destination) \(path)", try introspect(bus, destination, path)))
            } catch {
                return fail("tether-dbus-codegen: \(destination) \(path): \(error)", status: 1)
            }
        } else {
            guard !files.isEmpty, live.destination == nil, live.path == nil else { return fail(usage, status: 2) }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    return fail("tether-dbus-codegen: cannot read \(file)", status: 1)
                }
                sources.append((file, String(decoding: data, as: UTF8.self)))
            }
        }
        var interfaces: [DBusInterfaceDescription] = []
        for source in sources {
            do {
                interfaces += try DBusCodegen.parse(source.xml)
            } catch {
                return fail("tether-dbus-codegen: \(source.name): \(error)", status: 1)
            }
        }
        let swift: String
        do {
            swift = try DBusCodegen.generate(interfaces, options: options)
        } catch {
            return fail("tether-dbus-codegen: \(error)", status: 1)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(swift.utf8))
            return 0
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(swift.utf8)) else {
            return fail("tether-dbus-codegen: cannot write \(output)", status: 1)
        }
        return 0
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
        return status
    }
}
