import TetherDBusCodegen
import XCTest

/// D-Bus type signatures: parsed into types, mapped to the Swift types TetherGio reads, refused with a
/// typed error when malformed.
final class DBusTypeTests: XCTestCase {
    private func swift(_ signature: String) throws -> String {
        try DBusType(signature: signature, member: "M").swiftType(member: "M")
    }

    func testBasicTypesMapToTetherGiosValueTypes() throws {
        let expected = [
            "y": "UInt8", "b": "Bool", "n": "Int16", "q": "UInt16", "i": "Int32", "u": "UInt32", "x": "Int64",
            "t": "UInt64", "d": "Double", "s": "String", "o": "DBusObjectPath", "v": "GVariantValue",
        ]
        for (signature, type) in expected { XCTAssertEqual(try swift(signature), type, signature) }
    }

    func testContainersMapToArraysDictionariesAndStructs() throws {
        XCTAssertEqual(try swift("ao"), "[DBusObjectPath]")
        XCTAssertEqual(try swift("aay"), "[[UInt8]]")
        XCTAssertEqual(try swift("a{sv}"), "[String: GVariantValue]")
        XCTAssertEqual(try swift("a{sa{sv}}"), "[String: [String: GVariantValue]]")
        XCTAssertEqual(try swift("(uu)"), "DBusStruct<UInt32, UInt32>")
        XCTAssertEqual(try swift("a(ayuay)"), "[DBusStruct<[UInt8], UInt32, [UInt8]>]")
        XCTAssertEqual(try swift("a{u(sa{sv})}"), "[UInt32: DBusStruct<String, [String: GVariantValue]>]")
    }

    func testASignatureRoundTrips() throws {
        for signature in ["a{sa{sv}}", "a(udu)", "(i(ss)as)", "aaaay", "v"] {
            XCTAssertEqual(try DBusType(signature: signature, member: "M").signature, signature)
        }
    }

    func testMalformedSignaturesAreTypedErrors() {
        let cases = [
            "": "it is empty",
            "z": "'z' is not a type code",
            "{sv}": "a dictionary entry '{…}' may only be an array's element",
            "a{vs}": "a dictionary's key must be a basic type",
            "a{s}": "a dictionary entry holds exactly a key and a value, then '}'",
            "a{s": "it ends where a type was expected",
            "a{sss}": "a dictionary entry holds exactly a key and a value, then '}'",
            "()": "a structure has no fields",
            "(ii": "a structure is not closed",
            "ii": "it holds more than one complete type",
            "a": "it ends where a type was expected",
            String(repeating: "a", count: 70) + "y": "it nests deeper than D-Bus allows",
        ]
        for (signature, reason) in cases {
            XCTAssertThrowsError(try DBusType(signature: signature, member: "Prop"), signature) { error in
                XCTAssertEqual(
                    error as? DBusCodegenError, .invalidType(member: "Prop", signature: signature, reason: reason))
            }
        }
    }

    func testFileDescriptorsAndSignaturesAreNotSupportedYet() throws {
        // The error names the type that is not supported, inside its container.
        for (signature, unsupported) in ["h": "h", "ah": "h", "(sg)": "g"] {
            XCTAssertThrowsError(try swift(signature)) { error in
                XCTAssertEqual(error as? DBusCodegenError, .unsupportedType(member: "M", signature: unsupported))
            }
        }
    }
}
