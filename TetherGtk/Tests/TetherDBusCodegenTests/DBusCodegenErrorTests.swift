import Foundation
import TetherDBusCodegen
import XCTest

/// Bad input is a typed error that names the place — never a crash.
final class DBusCodegenErrorTests: XCTestCase {
    private func error(_ xml: String) -> DBusCodegenError? {
        do {
            _ = try DBusCodegen.swiftSource(forIntrospection: xml)
            return nil
        } catch {
            return error
        }
    }

    private func interface(_ members: String) -> String {
        "<node><interface name='org.example.I'>\(members)</interface></node>"
    }

    func testMalformedXMLIsAnError() {
        guard case .malformedXML(let line, _) = error("<node>\n<interface name='a.b'>\n</node>") else {
            return XCTFail("not malformedXML")
        }
        XCTAssertEqual(line, 3)
        guard case .malformedXML = error("not XML at all") else { return XCTFail("not malformedXML") }
        XCTAssertEqual(error(""), .malformedXML(line: 1, message: "there is no root element"))
        XCTAssertEqual(
            error("<interface name='a.b'/>"),
            .malformedXML(line: 1, message: "the root element is <interface>, not <node>"))
    }

    func testEachKindOfBadInputHasItsError() {
        XCTAssertEqual(
            error(interface("<property name='P' access='read'/>")),
            .missingAttribute(element: "property", attribute: "type"))
        XCTAssertEqual(
            error(interface("<property name='P' type='s'/>")),
            .missingAttribute(element: "property", attribute: "access"))
        XCTAssertEqual(error(interface("<method/>")), .missingAttribute(element: "method", attribute: "name"))
        XCTAssertEqual(
            error(interface("<property name='P' type='s' access='rw'/>")), .invalidAccess(property: "P", access: "rw"))
        XCTAssertEqual(
            error(interface("<method name='M'><arg type='s' direction='sideways'/></method>")),
            .invalidDirection(member: "M", direction: "sideways"))
        XCTAssertEqual(
            error(interface("<signal name='S'><arg type='s' direction='in'/></signal>")),
            .invalidDirection(member: "S", direction: "in"))
        XCTAssertEqual(
            error(interface("<property name='P' type='z' access='read'/>")),
            .invalidType(member: "P", signature: "z", reason: "'z' is not a type code"))
        XCTAssertEqual(
            error(interface("<property name='P' type='h' access='read'/>")),
            .unsupportedType(member: "P", signature: "h"))
        XCTAssertEqual(error(interface("<method name='Bad-Name'/>")), .invalidName(kind: "member", name: "Bad-Name"))
        XCTAssertEqual(
            error("<node><interface name='nodots'/></node>"), .invalidName(kind: "interface", name: "nodots"))
        XCTAssertEqual(
            error(interface("<method name='M'/><method name='M'/>")), .duplicateName(kind: "method", name: "M"))
        XCTAssertEqual(
            error("<node><interface name='a.b'/><interface name='a.b'/></node>"),
            .duplicateName(kind: "interface", name: "a.b"))
        let annotation = "<annotation name='org.freedesktop.DBus.Property.EmitsChangedSignal' value='sometimes'/>"
        XCTAssertEqual(
            error(interface("<property name='P' type='s' access='read'>\(annotation)</property>")),
            .invalidAnnotation(
                member: "P", name: "org.freedesktop.DBus.Property.EmitsChangedSignal", value: "sometimes"))
    }

    func testErrorsSayWhatAndWhere() {
        XCTAssertEqual(
            "\(DBusCodegenError.invalidType(member: "P", signature: "z", reason: "'z' is not a type code"))",
            "P: 'z' is not a D-Bus type: 'z' is not a type code")
        XCTAssertEqual(
            "\(DBusCodegenError.unsupportedType(member: "Fd", signature: "h"))",
            "Fd: the D-Bus type 'h' is not supported by the generated code yet")
    }

    /// Every prefix of a real document either parses or throws: truncated input never crashes the generator.
    func testEveryTruncationOfADocumentIsParsedOrRefused() throws {
        let xml = """
            <node xmlns:doc="http://www.freedesktop.org/dbus/1.0/doc.dtd"><!-- c -->
            <interface name="org.example.T"><doc:doc><doc:para>d</doc:para></doc:doc>
            <property name="P" type="a{sv}" access="read"><annotation name="x" value="y"/></property>
            <method name="M"><arg name="a" type="(ii)"/><arg type="ao" direction="out"/></method>
            <signal name="S"><arg type="as"/></signal></interface></node>
            """
        let bytes = Array(xml.utf8)
        var refused = 0
        for length in 0...bytes.count {
            if error(String(decoding: bytes[0..<length], as: UTF8.self)) != nil { refused += 1 }
        }
        XCTAssertEqual(refused, bytes.count, "only the whole document is valid")
    }
}
