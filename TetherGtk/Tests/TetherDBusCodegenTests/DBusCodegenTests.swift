import Foundation
import TetherDBusCodegen
import XCTest

/// The generated Swift: one client and one service per interface, properties by their change annotation,
/// deprecations, the standard interfaces left out unless asked for.
final class DBusCodegenTests: XCTestCase {
    private let xml = """
        <node>
          <interface name="org.freedesktop.DBus.Properties"><method name="Get"/></interface>
          <interface name="org.example.Player">
            <property name="Volume" type="d" access="readwrite"/>
            <property name="Identity" type="s" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
            </property>
            <property name="Position" type="x" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
            </property>
            <method name="Seek"><arg name="offset" type="x"/></method>
            <method name="Open"><arg name="uri" type="s"/><arg name="track" type="o" direction="out"/><arg name="length" type="x" direction="out"/></method>
            <method name="Stop"><annotation name="org.freedesktop.DBus.Deprecated" value="true"/></method>
            <signal name="Seeked"><arg name="position" type="x"/></signal>
          </interface>
        </node>
        """

    func testAClientPerInterfaceWithItsMembersTyped() throws {
        let swift = try DBusCodegen.swiftSource(forIntrospection: xml)
        for expected in [
            "public struct Player: Sendable {",
            #"public static let interfaceName = "org.example.Player""#,
            "public init(bus: DBusConnection, destination: String, path: String) throws(DBusError)",
            "public var volume: Signal<Double, DBusError>",
            "public func setVolume(_ value: Double) async throws(DBusError)",
            "public func bindVolume(to values: some SignalConvertible<Double, Never>",
            #"self.remote.property("Identity", as: String.self, changes: .const)"#,
            #"self.remote.property("Position", as: Int64.self, changes: .notEmitted)"#,
            "does not announce changes",
            "public func seek(offset: Int64) async throws(DBusError) {",
            "public func seekCommand() -> Command<Int64, Void, DBusError>",
            "public func open(uri: String) async throws(DBusError) -> (track: DBusObjectPath, length: Int64)",
            "public func openCommand() -> Command<String, (track: DBusObjectPath, length: Int64), DBusError>",
            "@available(*, deprecated)\n    public func stop() async throws(DBusError)",
            "public struct Seeked: Sendable, Equatable {",
            "public var seeked: Signal<Seeked, DBusError>",
            "public protocol PlayerService: Sendable {",
            "var volume: ChannelTerminal<Double, Never> { get }",
            "var identity: Signal<String, Never> { get }",
            "func open(uri: String) throws -> (track: DBusObjectPath, length: Int64)",
            "var seeked: Signal<Player.Seeked, Never> { get }",
            "public static func export(_ service: some PlayerService, on bus: DBusConnection, path: String)",
        ] {
            XCTAssertTrue(swift.contains(expected), "missing: \(expected)\n\(swift)")
        }
        XCTAssertFalse(swift.contains("struct Properties"), "the standard interfaces are TetherGio's")
    }

    func testOptionsIncludeTheStandardInterfacesAndLeaveOutServices() throws {
        var options = DBusCodegen.Options()
        options.includesStandardInterfaces = true
        options.includesServices = false
        let swift = try DBusCodegen.generate(DBusCodegen.parse(xml), options: options)
        XCTAssertTrue(swift.contains("public struct DBusProperties: Sendable"), swift)
        XCTAssertFalse(swift.contains("protocol PlayerService"))
    }

    func testADeprecatedInterfaceDeprecatesItsClientAndService() throws {
        let swift = try DBusCodegen.swiftSource(
            forIntrospection: """
                <node><interface name="org.example.Old">
                <annotation name="org.freedesktop.DBus.Deprecated" value="true"/>
                </interface></node>
                """)
        XCTAssertTrue(swift.contains("@available(*, deprecated)\npublic struct Old: Sendable"), swift)
        XCTAssertTrue(swift.contains("@available(*, deprecated)\npublic protocol OldService"), swift)
    }
}
