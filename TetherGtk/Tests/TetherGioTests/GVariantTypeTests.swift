import Foundation
import TetherGio
import XCTest

/// The Swift types that cross to GLib as GVariants: the scalar ones, arrays of any of them, dictionaries
/// (`a{sv}` above all) and `GVariantValue`, with typed errors when a value is read as another type.
final class GVariantTypeTests: XCTestCase {
    /// `value` made into a GVariant, printed with its type, and read back.
    private func roundTrip<Value: GVariantConvertible>(_ value: Value) throws -> (text: String, back: Value?) {
        let variant = try XCTUnwrap(value.makeVariant())
        let owned = g_variant_ref_sink(variant)!
        defer { g_variant_unref(owned) }
        XCTAssertEqual(String(cString: g_variant_get_type_string(owned)), Value.variantType)
        let text = g_variant_print(owned, 1)!
        defer { g_free(text) }
        return (String(cString: text), Value(variant: owned))
    }

    func testTheSmallIntegerAndObjectPathTypesRoundTrip() throws {
        XCTAssertEqual(try roundTrip(UInt8(255)).back, 255)
        XCTAssertEqual(try roundTrip(Int16(-300)).text, "int16 -300")
        XCTAssertEqual(try roundTrip(UInt16(443)).back, 443)
        let path = try DBusObjectPath("/org/freedesktop/NetworkManager/Devices/1")
        XCTAssertEqual(try roundTrip(path).text, "objectpath '/org/freedesktop/NetworkManager/Devices/1'")
        XCTAssertEqual(try roundTrip(path).back, path)
    }

    func testStructuresRoundTripWithTheirFieldsTyped() throws {
        XCTAssertEqual(DBusStruct<UInt32, Double, UInt32>.variantType, "(udu)")
        XCTAssertEqual([DBusStruct<Double, Double>].variantType, "a(dd)")
        let entry = DBusStruct(UInt32(1_700_000_000), 87.5, UInt32(2))
        XCTAssertEqual(try roundTrip(entry).text, "(uint32 1700000000, 87.5, uint32 2)")
        XCTAssertEqual(try roundTrip(entry).back, entry)
        let nested = DBusStruct("eth0", ["mtu": GVariantValue(UInt32(1500))!], [DBusStruct(Int16(1), true)])
        XCTAssertEqual(try roundTrip(nested).back, nested)
        XCTAssertEqual(try roundTrip([DBusStruct(1.0, 2.0), DBusStruct(3.0, 4.0)]).text, "[(1.0, 2.0), (3.0, 4.0)]")
        XCTAssertNotEqual(DBusStruct(1.0, 2.0), DBusStruct(1.0, 3.0))
    }

    func testAStructureIsNotReadAsOtherFields() throws {
        let variant = g_variant_ref_sink(DBusStruct(UInt32(1), UInt32(2)).makeVariant())!
        defer { g_variant_unref(variant) }
        XCTAssertNil(DBusStruct<UInt32, Int32>(variant: variant))
        XCTAssertNil(DBusStruct<UInt32>(variant: variant))
        XCTAssertNil(DBusStruct<UInt32, UInt32, UInt32>(variant: variant))
        XCTAssertNotNil(DBusStruct<UInt32, UInt32>(variant: variant))
        XCTAssertNil(DBusStruct("a", "nul\u{0}").makeVariant(), "a field GVariant cannot hold: nothing made")
    }

    func testAnInvalidObjectPathIsATypedError() {
        XCTAssertThrowsError(try DBusObjectPath("org/relative")) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .objectPath, value: "org/relative"))
        }
    }

    func testArraysOfAnyElementTypeRoundTrip() throws {
        XCTAssertEqual([Int32].variantType, "ai")
        XCTAssertEqual(try roundTrip([Int32(1), -2]).back, [1, -2])
        XCTAssertEqual(try roundTrip([UInt8]()).text, "@ay []")
        XCTAssertEqual(try roundTrip([["a"], ["b", "c"]]).back, [["a"], ["b", "c"]])
        let paths = [try DBusObjectPath("/a"), try DBusObjectPath("/b")]
        XCTAssertEqual(try roundTrip(paths).text, "[objectpath '/a', '/b']")
        let records: [[String: GVariantValue]] = [["id": GVariantValue(UInt32(1))!], [:]]
        XCTAssertEqual([[String: GVariantValue]].variantType, "aa{sv}")
        XCTAssertEqual(try roundTrip(records).back, records)
    }

    func testAStringVariantDictionaryRoundTripsWithItsEntriesTyped() throws {
        let metadata: [String: GVariantValue] = [
            "xesam:title": GVariantValue("Blue in Green")!,
            "mpris:length": GVariantValue(Int64(337_000_000))!,
            "xesam:artist": GVariantValue(["Miles Davis"])!,
            "nested": GVariantValue(["depth": GVariantValue(UInt32(2))!])!,
        ]
        XCTAssertEqual([String: GVariantValue].variantType, "a{sv}")
        let (text, back) = try roundTrip(metadata)
        XCTAssertTrue(text.contains("'xesam:title': <'Blue in Green'>"), text)
        XCTAssertTrue(text.contains("'mpris:length': <int64 337000000>"), text)
        let read = try XCTUnwrap(back)
        XCTAssertEqual(read, metadata)
        XCTAssertEqual(try read.value("xesam:title", as: String.self), "Blue in Green")
        XCTAssertEqual(try read.value("xesam:artist", as: [String].self), ["Miles Davis"])
        XCTAssertEqual(try read.value("nested", as: [String: GVariantValue].self).value("depth", as: UInt32.self), 2)
        XCTAssertEqual(read["mpris:length"]?.typeString, "x")
    }

    func testAnEntryReadAsAnotherTypeOrMissingIsATypedError() throws {
        let options: [String: GVariantValue] = ["timeout": GVariantValue(UInt32(30))!]
        XCTAssertThrowsError(try options.value("timeout", as: String.self)) {
            XCTAssertEqual($0 as? GVariantError, .typeMismatch(key: "timeout", expected: "s", actual: "u"))
        }
        XCTAssertThrowsError(try options.value("retries", as: UInt32.self)) {
            XCTAssertEqual($0 as? GVariantError, .missingKey("retries"))
        }
        XCTAssertThrowsError(try options["timeout"]!.get(Int32.self)) {
            XCTAssertEqual($0 as? GVariantError, .typeMismatch(key: nil, expected: "i", actual: "u"))
        }
    }

    func testAVariantOfAnotherTypeIsNotReadAsADictionaryOrArray() throws {
        let strings = try GVariantValue(parsing: "{'a': 'b'}")
        XCTAssertEqual(strings.typeString, "a{ss}")
        XCTAssertEqual(try strings.get([String: String].self), ["a": "b"])
        XCTAssertThrowsError(try strings.get([String: GVariantValue].self)) {
            XCTAssertEqual($0 as? GVariantError, .typeMismatch(key: nil, expected: "a{sv}", actual: "a{ss}"))
        }
        XCTAssertThrowsError(try GVariantValue(parsing: "[1, 2]").get([String].self)) {
            XCTAssertEqual($0 as? GVariantError, .typeMismatch(key: nil, expected: "as", actual: "ai"))
        }
    }

    func testValuesGVariantCannotHoldAreNotMade() {
        XCTAssertNil(["big": Int.max].makeVariant(), "an Int beyond 32 bits in a dictionary")
        XCTAssertNil(["a\0b"].makeVariant(), "a NUL character in an array's string")
        XCTAssertNil([["a"]: Int32(1)].makeVariant(), "a dictionary whose key is not a basic type")
        XCTAssertNil(GVariantValue(Int.min))
    }

    func testInvalidTextIsATypedError() {
        XCTAssertThrowsError(try GVariantValue(parsing: "{'unclosed'")) { error in
            guard case .invalidText(let text, _) = error as? GVariantError else { return XCTFail("\(error)") }
            XCTAssertEqual(text, "{'unclosed'")
        }
    }

    func testAValueHeldAsItCameIsUnboxedFromAVariant() throws {
        let boxed = try GVariantValue(parsing: "<uint32 5>")
        XCTAssertEqual(boxed.typeString, "v", "parsed text is held as it is")
        XCTAssertEqual(try boxed.get(GVariantValue.self).get(UInt32.self), 5)
        XCTAssertEqual(GVariantValue(UInt32(5))!.description, "uint32 5")
        XCTAssertNotEqual(GVariantValue(UInt32(5))!, GVariantValue(Int32(5))!)
    }
}
