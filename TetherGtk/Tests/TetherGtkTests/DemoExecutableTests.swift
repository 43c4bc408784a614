import Foundation
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
