import Foundation
import Synchronization
import XCTest

/// The demo's GSettings schema (`TetherGtk/schemas`), compiled into a temporary directory once per process.
enum DemoSchema {
    static let directory: String = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schemas/org.tether.GtkDemo.gschema.xml")
        let directory = temporaryDirectory("schemas")
        try! FileManager.default.copyItem(
            atPath: source.path, toPath: directory + "/org.tether.GtkDemo.gschema.xml")
        let result = runToEnd("/usr/bin/env", ["glib-compile-schemas", directory])
        precondition(result.code == 0, "glib-compile-schemas failed: \(result.output)")
        return directory
    }()

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "tether-gtk-demo-\(name)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Runs a program to its end (the main context is not iterated meanwhile).
@discardableResult
func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (
    code: Int32, output: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try! process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
