import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// `tether-dbus-codegen` as a user runs it: on an XML file, and on a live object of the private bus.
final class CodegenCommandTests: PrivateBusTestCase {
    private func codegen(_ arguments: [String]) throws -> (code: Int32, output: String) {
        let executable = try executableNextToTests("tether-dbus-codegen")
        return try RunningProcess(executable, arguments).finish()
    }

    func testTheCommandPrintsSwiftForALiveObject() throws {
        let client = try DBusConnection(address: Self.bus.address)
        let mock = try DBusMock(
            template: "upower", busName: "org.freedesktop.UPower", path: "/org/freedesktop/UPower",
            address: Self.bus.address, client: client)
        defer { mock.stop() }
        let result = try codegen([
            "--bus", Self.bus.address, "--dest", "org.freedesktop.UPower", "--path", "/org/freedesktop/UPower",
        ])
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertTrue(result.output.contains("public struct UPower: Sendable {"), result.output)
        XCTAssertTrue(result.output.contains(#"public static let interfaceName = "org.freedesktop.UPower""#))
        XCTAssertTrue(result.output.contains("public var onBattery: Signal<Bool, DBusError>"))
        XCTAssertTrue(
            result.output.contains("public func enumerateDevices() async throws(DBusError) -> [DBusObjectPath]"))
        XCTAssertFalse(
            result.output.contains("interfaceName = \"org.freedesktop.DBus.Properties\""),
            "standard interfaces left out")
    }

    func testTheCommandReportsAnObjectThatIsNotThere() throws {
        let result = try codegen(["--bus", Self.bus.address, "--dest", "org.example.Nobody", "--path", "/"])
        XCTAssertEqual(result.code, 1)
        XCTAssertTrue(result.output.contains("org.freedesktop.DBus.Error.ServiceUnknown"), result.output)
    }

    func testTheCommandWritesAFileAndReportsBadXML() throws {
        let directory = temporaryDirectory(prefix: "tether-codegen", "command")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = directory + "/good.xml"
        let bad = directory + "/bad.xml"
        try "<node><interface name='org.example.Good'><method name='Go'/></interface></node>".write(
            toFile: good, atomically: true, encoding: .utf8)
        try "<node><interface name='org.example.Bad'><property name='P' type='z' access='read'/></interface></node>"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let written = try codegen(["--output", directory + "/Good.swift", good])
        XCTAssertEqual(written.code, 0, written.output)
        let swift = try String(contentsOfFile: directory + "/Good.swift", encoding: .utf8)
        XCTAssertTrue(swift.contains("public func go() async throws(DBusError)"), swift)
        let refused = try codegen([bad])
        XCTAssertEqual(refused.code, 1)
        XCTAssertTrue(
            refused.output.contains("bad.xml: P: 'z' is not a D-Bus type: 'z' is not a type code"), refused.output)
    }
}
