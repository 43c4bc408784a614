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

/// A private `dbus-daemon` for one test, stopped by `stop()`.
final class PrivateSessionBus: @unchecked Sendable {
    // Safety: `process` is started by init and stopped by `stop()`, both on the test's thread; `address` is
    // immutable.
    let address: String
    private let process = Process()

    init() throws {
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
        guard address.hasPrefix("unix:") else { throw CocoaError(.fileReadUnknown) }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Starts `gdbus ARGUMENTS… --session` on this bus; its output is collected as it comes.
    func gdbus(_ arguments: [String]) throws -> CollectingProcess {
        try CollectingProcess(
            "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + address, "gdbus"] + arguments + ["--session"])
    }
}

/// A process whose output is collected while the test pumps the main context.
final class CollectingProcess: Sendable {
    private let process: Process
    private let output = Pipe()
    private let collected = LockedData()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        let collected = collected
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        self.process = process
    }

    var isRunning: Bool { process.isRunning }
    var outputSoFar: String { collected.text }

    /// Pumps the main context until the process exits; returns its status and output.
    func finish(file: StaticString = #filePath, line: UInt = #line) -> (code: Int32, output: String) {
        if !pump(until: { !process.isRunning }, watchdog: 30, file: file, line: line) { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        collected.append((try? output.fileHandleForReading.readToEnd()) ?? Data())
        return (process.terminationStatus, outputSoFar)
    }

    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }
}

/// Bytes appended from a reading thread, read from the test's.
final class LockedData: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
