import Foundation
import XCTest

/// Runs the built `tether-demo` executable and splits what it prints into screens.
struct DemoProcess {
    struct Result {
        var status: Int32
        var output: String
        var errors: String

        /// The screens printed after each step: (heading, screen text).
        var screens: [(heading: String, text: String)] {
            var screens: [(String, String)] = []
            for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("── ") {
                    let heading = line.dropFirst(3).components(separatedBy: " ──")[0]
                    screens.append((heading, ""))
                } else if !screens.isEmpty {
                    screens[screens.count - 1].1 += line + "\n"
                }
            }
            return screens
        }

        /// The screen printed after the step whose heading starts with `prefix` (e.g. "3: key tab").
        func screen(after prefix: String, file: StaticString = #filePath, line: UInt = #line) -> String {
            guard let screen = screens.first(where: { $0.heading.hasPrefix(prefix) }) else {
                XCTFail("no screen after \"\(prefix)\"; headings: \(screens.map(\.heading))", file: file, line: line)
                return ""
            }
            return screen.text
        }

        var lastScreen: String { screens.last?.text ?? "" }
    }

    /// The executable next to the test bundle (both are in the build's products directory).
    static var executable: URL? {
        let candidates = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.map { $0.appendingPathComponent("tether-demo") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    /// Runs `tether-demo arguments`, with `input` on standard input (a pipe, so not a terminal).
    static func run(_ arguments: [String], input: String = "", file: StaticString = #filePath, line: UInt = #line)
        throws -> Result
    {
        guard let executable else {
            XCTFail(
                "tether-demo is not next to the test bundle (\(Bundle.main.bundleURL.path)); run `swift build` first",
                file: file, line: line)
            return Result(status: -1, output: "", errors: "")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = stderr.fileHandleForReading.readDataToEndOfFile() }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs `script` through `--script FILE`.
    static func run(script: String, arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line)
        throws -> Result
    {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-demo-\(UUID()).script")
        try script.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try run(["--script", url.path] + arguments, file: file, line: line)
    }
}
