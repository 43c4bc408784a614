import Foundation
import TetherGio
import XCTest

/// A private D-Bus message bus for one test class: `dbus-daemon --session --nofork`, started by the tests
/// (Debian package `dbus`), stopped when the class ends.
public final class PrivateBus: Sendable {
    package let address: String
    private let process: Process

    package init() throws {
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

    package enum BusError: Error { case noAddress(String) }

    package func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Starts `gdbus ARGUMENTS… --session` in another process, its session bus this one; the test pumps the
    /// main context while it runs (the in-process service answers it there), then checks its exit status
    /// with `finish`. (`--session` rather than `--address`: with `--address`, gdbus does not register with
    /// the bus, and the bus does not route its signals to other clients.)
    package func gdbus(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(
            "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + address, "gdbus"] + arguments + ["--session"])
    }
}

/// A process run without blocking the main context; its output is collected as it comes.
package final class RunningProcess: Sendable {
    private let process: Process
    private let output = Pipe()
    private let collected = Locked(Data())

    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
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

    package var isRunning: Bool { process.isRunning }

    /// Stops a process that runs until stopped (`gdbus monitor`) and waits for it.
    package func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }

    /// What the process printed so far.
    package var outputSoFar: String { String(decoding: collected.load(), as: UTF8.self) }

    /// Pumps the main context until the process exits (terminating it if the watchdog fires); returns its
    /// exit status and output.
    package func finish(
        watchdog: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
    ) -> (code: Int32, output: String) {
        if !pump(until: { !process.isRunning }, watchdog: watchdog, file: file, line: line) { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        collected.modify { $0.append(rest) }
        return (process.terminationStatus, outputSoFar)
    }
}
