import TetherDBusCodegen
import XCTest

/// D-Bus names in Swift style, keywords escaped, clashes made unique, the D-Bus name kept.
final class SwiftNamingTests: XCTestCase {
    func testMembersAreLowerCamelCase() {
        let cases = [
            "Percentage": "percentage", "TimeToEmpty": "timeToEmpty", "GetDevices": "getDevices",
            "DHCP4Config": "dhcp4Config", "IPv4": "iPv4", "HwAddress": "hwAddress", "URLPath": "urlPath",
            "specific_object": "specificObject", "connection-id": "connectionId", "ID": "id", "x": "x",
            "4Way": "_4Way",
        ]
        for (dbus, swift) in cases { XCTAssertEqual(SwiftNaming.lowerCamel(dbus), swift, dbus) }
    }

    func testInterfacesDropTheirDomain() {
        XCTAssertEqual(SwiftNaming.typeName(interface: "org.freedesktop.UPower.Device"), "UPowerDevice")
        XCTAssertEqual(
            SwiftNaming.typeName(interface: "org.freedesktop.NetworkManager.Device.Wired"), "NetworkManagerDeviceWired")
        XCTAssertEqual(SwiftNaming.typeName(interface: "org.freedesktop"), "OrgFreedesktop")
        XCTAssertEqual(SwiftNaming.typeName(interface: "org.example.Signal"), "SignalInterface")
    }

    func testKeywordsAreEscapedOrSuffixed() {
        XCTAssertEqual(SwiftNaming.identifier("default"), "`default`")
        XCTAssertEqual(SwiftNaming.identifier("in"), "`in`")
        XCTAssertEqual(SwiftNaming.identifier("self"), "self_")
        XCTAssertEqual(SwiftNaming.identifier("init"), "init_")
        XCTAssertEqual(SwiftNaming.identifier("percentage"), "percentage")
    }

    func testClashingMembersAreMadeUniqueAndKeepTheirDBusNames() throws {
        let swift = try DBusCodegen.swiftSource(
            forIntrospection: """
                <node><interface name="org.example.Clash">
                  <property name="State" type="u" access="read"/>
                  <method name="State"><arg type="u" direction="out"/></method>
                  <signal name="state"/>
                  <property name="Remote" type="s" access="read"/>
                  <method name="Go"><arg name="a_b" type="s"/><arg name="aB" type="s"/></method>
                </interface></node>
                """)
        XCTAssertTrue(swift.contains("public var state: Signal<UInt32, DBusError>"), swift)
        XCTAssertTrue(swift.contains(#"self.remote.property("State", as: UInt32.self, changes: .emitted)"#))
        XCTAssertTrue(swift.contains("public func stateMethod() async throws(DBusError) -> UInt32"))
        XCTAssertTrue(swift.contains(#"try await self.remote.call("State", returning: UInt32.self)"#))
        XCTAssertTrue(swift.contains("public var stateSignal: Signal<Void, DBusError>"))
        XCTAssertTrue(swift.contains(#"self.remote.signal("state")"#))
        XCTAssertTrue(
            swift.contains("public var remoteProperty: Signal<String, DBusError>"), "`remote` is the client's own")
        XCTAssertTrue(swift.contains("public func go(aB: String, aB1: String)"))
    }
}
