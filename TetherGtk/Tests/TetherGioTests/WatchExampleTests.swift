import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Runs the headless example `tether-gio-watch` against a private bus, as a user runs it against theirs.
final class WatchExampleTests: PrivateBusTestCase {
    private func watch(_ arguments: [String]) throws -> RunningProcess {
        let executable = try executableNextToTests("tether-gio-watch")
        return try RunningProcess(
            "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + Self.bus.address, executable] + arguments)
    }

    func testTheExamplePrintsAPropertyThenItsChange() throws {
        let service = try TestService(address: Self.bus.address)
        defer { service.stop() }
        let watcher = try watch([
            "--dest", TestService.busName, "--path", TestService.path, "--interface", TestService.interface,
            "--property", "Name", "--type", "s", "--count", "2",
        ])
        pump(until: { watcher.outputSoFar == "Name: initial\n" })
        service.setName("changed")
        let result = watcher.finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(result.output, "Name: initial\nName: changed\n")
    }

    func testTheExamplePrintsANamesOwnerAppearing() throws {
        let watcher = try watch(["--name", "org.tether.Watched", "--count", "2"])
        let other = try TestService(address: Self.bus.address)
        defer { other.stop() }
        pump(until: { watcher.outputSoFar == "org.tether.Watched: no owner\n" })
        other.call("RequestName", "('org.tether.Watched', uint32 4)")
        let result = watcher.finish()
        XCTAssertEqual(result.code, 0, result.output)
        let owner = try XCTUnwrap(other.connection.uniqueName)
        XCTAssertEqual(result.output, "org.tether.Watched: no owner\norg.tether.Watched: \(owner)\n")
    }

    func testTheExampleFollowsAConfigurationFileThroughAnAtomicSave() throws {
        let directory = TestSchema.temporaryDirectory("watch")
        let file = directory + "/app.conf"
        try Data("level=info\nname=ann\n".utf8).write(to: URL(fileURLWithPath: file))
        let watcher = try watch(["--file", file, "--count", "2"])
        pump(until: { watcher.outputSoFar == "\(file): level=info | name=ann\n" })
        // An editor's save: a new file renamed over the old one.
        try Data("level=debug\n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        let result = watcher.finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(result.output, "\(file): level=info | name=ann\n\(file): level=debug\n")
    }

    func testAFileAndABusNameAreFollowedTogether() throws {
        let directory = TestSchema.temporaryDirectory("watch")
        let file = directory + "/app.conf"
        try Data("on".utf8).write(to: URL(fileURLWithPath: file))
        let watcher = try watch(["--file", file, "--name", "org.tether.Both", "--count", "2"])
        let result = watcher.finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(
            Set(result.output.split(separator: "\n")), ["\(file): on", "org.tether.Both: no owner"], result.output)
    }

    func testAMissingFileIsATypedErrorAndExitStatus1() throws {
        let missing = TestSchema.temporaryDirectory("watch") + "/nothing.conf"
        let result = try watch(["--file", missing]).finish()
        XCTAssertEqual(result.code, 1)
        XCTAssertTrue(result.output.contains(missing), result.output)
    }

    func testBadArgumentsPrintTheUsage() throws {
        let result = try watch(["--frobnicate"]).finish()
        XCTAssertEqual(result.code, 2)
        XCTAssertTrue(result.output.contains("usage: tether-gio-watch"), result.output)
    }
}
