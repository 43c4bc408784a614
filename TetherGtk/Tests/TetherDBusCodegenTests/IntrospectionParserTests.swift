import TetherDBusCodegen
import XCTest

/// Introspection XML read into interface descriptions: members, arguments, access, annotations and the
/// documentation from `<doc:doc>` elements and XML comments.
final class IntrospectionParserTests: XCTestCase {
    private let sample = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node name="/org/example" xmlns:doc="http://www.freedesktop.org/dbus/1.0/doc.dtd">
          <!--
              org.example.Battery:

              A battery.
          -->
          <interface name="org.example.Battery">
            <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
            <!--
                Percentage:

                How full it is,
                in percent.

                Since: 1.0
            -->
            <property name="Percentage" type="d" access="read"/>
            <property name="Model" type="s" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
            </property>
            <property name="Rate" type="u" access="readwrite"/>
            <method name="GetHistory">
              <doc:doc><doc:description><doc:para>The history</doc:para><doc:para>of charges.</doc:para></doc:description></doc:doc>
              <arg name="type" type="s" direction="in"/>
              <arg name="timespan" type="u"/>
              <arg name="data" type="a(udu)" direction="out">
                <doc:doc><doc:summary>The entries.</doc:summary></doc:doc>
              </arg>
            </method>
            <signal name="Changed">
              <annotation name="org.freedesktop.DBus.Deprecated" value="true"/>
              <arg name="state" type="u"/>
              <arg type="b"/>
            </signal>
          </interface>
          <node name="child">
            <interface name="org.example.Child"/>
          </node>
        </node>
        """

    func testMembersArgumentsAndAccessAreRead() throws {
        let interfaces = try DBusCodegen.parse(sample)
        XCTAssertEqual(interfaces.map(\.name), ["org.example.Battery"], "a nested node's interface is another object's")
        let battery = interfaces[0]
        XCTAssertEqual(battery.properties.map(\.name), ["Percentage", "Model", "Rate"])
        XCTAssertEqual(battery.properties.map(\.type), [.double, .string, .uint32])
        XCTAssertEqual(battery.properties.map(\.access), [.read, .read, .readWrite])
        let history = try XCTUnwrap(battery.methods.first)
        XCTAssertEqual(history.inputs.map(\.name), ["type", "timespan"])
        XCTAssertEqual(history.inputs.map(\.type), [.string, .uint32])
        XCTAssertEqual(history.outputs.map(\.type), [.array(.structure([.uint32, .double, .uint32]))])
        let changed = try XCTUnwrap(battery.signals.first)
        XCTAssertEqual(changed.arguments.map(\.name), ["state", nil])
        XCTAssertEqual(changed.annotations["org.freedesktop.DBus.Deprecated"], "true")
    }

    func testEmitsChangedSignalComesFromThePropertyElseItsInterface() throws {
        let battery = try DBusCodegen.parse(sample)[0]
        XCTAssertEqual(battery.properties.map(\.changes), [.invalidates, .const, .invalidates])
        let plain = try DBusCodegen.parse(
            "<node><interface name='a.b'><property name='P' type='b' access='read'/></interface></node>")[0]
        XCTAssertEqual(plain.properties[0].changes, .emitted)
    }

    func testDocumentationComesFromDocElementsAndComments() throws {
        let battery = try DBusCodegen.parse(sample)[0]
        XCTAssertEqual(battery.documentation, "A battery.")
        XCTAssertEqual(battery.properties[0].documentation, "How full it is, in percent.\n\nSince: 1.0")
        XCTAssertNil(battery.properties[1].documentation)
        XCTAssertEqual(battery.methods[0].documentation, "The history\n\nof charges.")
        XCTAssertEqual(battery.methods[0].outputs[0].documentation, "The entries.")
    }

    func testAnEmptyNodeHasNoInterfaces() throws {
        XCTAssertEqual(try DBusCodegen.parse("<node/>"), [])
    }
}
