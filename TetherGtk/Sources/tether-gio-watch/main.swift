import Foundation
import Synchronization
import TetherGio

// A headless TetherGio program: follows a configuration file (inotify, --file), a bus name's owner or a
// D-Bus property on the session bus (or the system bus with --system), or GIO's network monitor (--network)
// and prints each value, until stopped or --count values were printed. No GTK, no display: a daemon's loop
// (g_main_loop_run).
//
//   tether-gio-watch --network
//   tether-gio-watch --file ~/.config/app.conf --name org.freedesktop.Notifications
//   tether-gio-watch --name org.freedesktop.Notifications
//   tether-gio-watch --system --dest org.freedesktop.UPower --path /org/freedesktop/UPower \
//       --interface org.freedesktop.UPower --property OnBattery --type b

let usage = """
    usage: tether-gio-watch [--file PATH] [--system] [--count N] --name BUS_NAME
           tether-gio-watch [--file PATH] [--system] [--count N] --dest BUS_NAME --path OBJECT_PATH
                            --interface INTERFACE --property NAME --type s|b|i|u|x|t|d|as
           tether-gio-watch [--count N] --file PATH
           tether-gio-watch [--count N] --network

    --file PATH prints the file's contents, then its contents after each change (an editor's atomic save
    included), its lines joined with " | ".
    --network prints GIO's network monitor (its implementation first), then whether a network is available,
    whether it is metered and its connectivity, and each of them again when it changes.

    """

/// Writes `text` to standard error and exits with `status`.
func stop(_ text: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(text.utf8))
    exit(status)
}

/// Prints each line it is given; exits after `limit` lines.
final class Printer: Sendable {
    private let limit: Int?
    private let printed = Locked(0)

    init(limit: Int?) { self.limit = limit }

    func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        let count = printed.withLock { count in
            count += 1
            return count
        }
        if let limit, count >= limit { exit(0) }
    }
}

/// The property's values as text, for the D-Bus type given.
func values(
    _ bus: DBusConnection, _ name: String, _ interface: String, _ path: String, _ destination: String, type: String
) throws(DBusError) -> Signal<String, DBusError> {
    func watch<Value: GVariantConvertible>(_ type: Value.Type) throws(DBusError) -> Signal<String, DBusError> {
        try bus.property(name, interface: interface, path: path, on: destination, as: type).map { "\($0)" }
    }
    switch type {
    case "b": return try watch(Bool.self)
    case "i": return try watch(Int32.self)
    case "u": return try watch(UInt32.self)
    case "x": return try watch(Int64.self)
    case "t": return try watch(UInt64.self)
    case "d": return try watch(Double.self)
    case "as": return try watch([String].self)
    default: return try watch(String.self)
    }
}

/// GIO's network monitor: its implementation, then each property's value and changes.
@MainActor
func watchNetwork(_ printer: Printer) -> [any Disposable] {
    let network = NetworkMonitor.default
    printer.report("network monitor: \(network.handle.typeName)")
    return [
        network.isNetworkAvailable.subscribe(next: { printer.report("network-available: \($0)") }),
        network.isNetworkMetered.subscribe(next: { printer.report("network-metered: \($0)") }),
        network.connectivity.subscribe(next: { printer.report("connectivity: \($0)") }),
    ]
}

/// Parses the arguments, subscribes, and runs GLib's main loop.
func run(_ arguments: [String]) -> Never {
    var options: [String: String] = [:]
    var system = false
    var rest = arguments
    while let argument = rest.first {
        rest.removeFirst()
        if argument == "--system" {
            system = true
        } else if argument == "--network" {
            options["network"] = ""
        } else if argument.hasPrefix("--"), let value = rest.first {
            options[String(argument.dropFirst(2))] = value
            rest.removeFirst()
        } else {
            stop(usage, status: 2)
        }
    }
    let printer = Printer(limit: options["count"].flatMap(Int.init))
    var subscriptions: [any Disposable] = []
    if let file = options["file"] {
        // The contents first, then after each change; re-read on the file watches' thread.
        subscriptions.append(
            Signal.fileContents(at: file)
                .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").joined(separator: " | ") }
                .subscribe(
                    next: { text in printer.report("\(file): \(text)") },
                    error: { error in stop("tether-gio-watch: \(error)\n", status: 1) }))
    }
    if options["network"] != nil {
        subscriptions += MainActor.assumeIsolated { watchNetwork(printer) }
    }
    let wantsBus = options["name"] != nil || options["property"] != nil
    if wantsBus || (options["file"] == nil && options["network"] == nil) {
        do {
            let bus = try system ? DBusConnection.system() : DBusConnection.session()
            if let name = options["name"] {
                subscriptions.append(
                    try bus.nameOwner(of: name).subscribe(next: { owner in
                        printer.report("\(name): \(owner ?? "no owner")")
                    }))
            } else if let property = options["property"], let interface = options["interface"],
                let path = options["path"], let destination = options["dest"]
            {
                subscriptions.append(
                    try values(bus, property, interface, path, destination, type: options["type"] ?? "s")
                        .subscribe(
                            next: { value in printer.report("\(property): \(value)") },
                            error: { error in stop("tether-gio-watch: \(error)\n", status: 1) }))
            } else {
                stop(usage, status: 2)
            }
        } catch {
            stop("tether-gio-watch: \(error)\n", status: 1)
        }
    }
    withExtendedLifetime(subscriptions) { g_main_loop_run(g_main_loop_new(nil, 0)) }
    exit(0)
}

run(Array(CommandLine.arguments.dropFirst()))
