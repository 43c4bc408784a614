import Foundation
import TetherGioTestSupport
import XCTest

/// Runs the built `tether-gtk-demo` in its screenshot mode, as CI and the README do.
final class DemoExecutableTests: XCTestCase {
    private var executable: URL? {
        let candidates = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.map { $0.appendingPathComponent("tether-gtk-demo") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    private func screenshot(_ arguments: [String]) throws -> Data {
        let executable = try XCTUnwrap(executable, "tether-gtk-demo is not next to the test bundle")
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tether-gtk-demo-\(getpid())-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--screenshot", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, printed)
        XCTAssertTrue(printed.contains("wrote \(path)"), printed)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func testTheScreenshotModeWritesAPNGWhoseContentFollowsTheInput() throws {
        let invalid = try screenshot(["--username", "te", "--query", "lo"])
        let signedIn = try screenshot(["--username", "tether", "--password", "password", "--sign-in", "--query", "san"])
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(invalid.prefix(8), png)
        XCTAssertEqual(signedIn.prefix(8), png)
        XCTAssertGreaterThan(invalid.count, 1000)
        XCTAssertNotEqual(invalid, signedIn)
    }

    func testTheDemoRemembersTheUsernameInItsKeyFileAndPublishesItsSignIn() throws {
        let executable = try XCTUnwrap(executable)
        let configHome = DemoSchema.temporaryDirectory("config")
        let screenshot = configHome + "/shot.png"
        let bus = try PrivateBus()
        defer { bus.stop() }
        let monitor = try bus.gdbus(["monitor", "--dest", "org.tether.GtkDemo"])
        defer { monitor.terminate() }
        pump(until: { monitor.outputSoFar.contains("Monitoring signals") })
        let environment = [
            "GSETTINGS_SCHEMA_DIR": DemoSchema.directory, "XDG_CONFIG_HOME": configHome,
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "GTK_A11Y": "none",
        ]
        let demo = try RunningProcess(
            executable.path,
            ["--username", "tether", "--password", "password", "--sign-in", "--screenshot", screenshot],
            environment: environment
        ).finish(watchdog: 30)
        XCTAssertEqual(demo.code, 0, demo.output)
        XCTAssertFalse(demo.output.contains("not remembering"), demo.output)
        pump(until: { monitor.outputSoFar.contains("SignedInAs ('tether',)") })
        // Another process reads what the demo stored.
        let stored = runToEnd(
            "/usr/bin/env", ["gsettings", "get", "org.tether.GtkDemo", "username"],
            environment: [
                "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome,
                "GSETTINGS_SCHEMA_DIR": DemoSchema.directory,
            ])
        XCTAssertEqual(stored.output.trimmingCharacters(in: .whitespacesAndNewlines), "'tether'")
    }

    func testWithoutItsSchemaTheDemoSaysSoAndStillRuns() throws {
        let executable = try XCTUnwrap(executable)
        let configHome = DemoSchema.temporaryDirectory("config")
        let demo = try RunningProcess(
            executable.path, ["--screenshot", configHome + "/shot.png"],
            environment: ["XDG_CONFIG_HOME": configHome, "GTK_A11Y": "none", "GSETTINGS_SCHEMA_DIR": configHome]
        ).finish(watchdog: 30)
        XCTAssertEqual(demo.code, 0, demo.output)
        XCTAssertTrue(demo.output.contains("not remembering the username and window size"), demo.output)
        XCTAssertTrue(demo.output.contains("wrote " + configHome + "/shot.png"), demo.output)
    }

    func testABadArgumentExitsWithUsage() throws {
        let executable = try XCTUnwrap(executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--colour", "blue"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let printed = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertTrue(printed.contains("unknown argument --colour"), printed)
    }
}
