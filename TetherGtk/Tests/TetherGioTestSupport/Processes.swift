import Foundation
import XCTest

/// Runs a program to its end (the main context is not iterated meanwhile); returns its exit status and its
/// standard output and error together.
@discardableResult
package func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (
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

/// A new empty directory under the system's temporary directory, named `prefix-name-UUID`.
package func temporaryDirectory(prefix: String, _ name: String) -> String {
    let path = NSTemporaryDirectory() + "\(prefix)-\(name)-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The executable product `name` (`tether-gio-watch`), built next to the test bundle; fails the test when it is
/// not there.
package func executableNextToTests(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String
{
    let candidates = [
        Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    let executable = try XCTUnwrap(
        candidates.map { $0.appendingPathComponent(name) }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }, "\(name) is not next to the test bundle", file: file, line: line)
    return executable.path
}
