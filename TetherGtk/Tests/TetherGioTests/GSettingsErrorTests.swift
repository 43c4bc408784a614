import Foundation
import TetherGio
import XCTest

/// Bad input gets a typed error at the call — never GLib's abort or a critical and a silent no-op.
final class GSettingsErrorTests: XCTestCase {
    func testAnUnknownSchemaIsATypedErrorInsteadOfGLibsAbort() {
        XCTAssertThrowsError(
            try GSettingsHandle(schema: "org.tether.NoSuchSchema", schemaDirectory: TestSchema.directory)
        ) {
            XCTAssertEqual($0 as? GSettingsError, .unknownSchema("org.tether.NoSuchSchema"))
        }
    }

    func testADirectoryWithoutCompiledSchemasIsATypedError() {
        let empty = TestSchema.temporaryDirectory("empty")
        XCTAssertThrowsError(try GSettingsHandle(schema: TestSchema.id, schemaDirectory: empty)) { error in
            guard case .unreadableSchemaDirectory(let path, _) = error as? GSettingsError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(path, empty)
        }
    }

    func testARelocatableSchemaNeedsAValidPath() throws {
        XCTAssertThrowsError(
            try GSettingsHandle(schema: TestSchema.relocatableID, schemaDirectory: TestSchema.directory)
        ) {
            XCTAssertEqual($0 as? GSettingsError, .pathRequired(schema: TestSchema.relocatableID))
        }
        for bad in ["no/slashes/", "/no/trailing", "/double//slash/"] {
            XCTAssertThrowsError(
                try GSettingsHandle(
                    schema: TestSchema.relocatableID, path: bad, schemaDirectory: TestSchema.directory, backend: .memory
                )
            ) {
                XCTAssertEqual($0 as? GSettingsError, .invalidPath(schema: TestSchema.relocatableID, path: bad))
            }
        }
        let relocated = try GSettingsHandle(
            schema: TestSchema.relocatableID, path: "/org/tether/accounts/ann/", schemaDirectory: TestSchema.directory,
            backend: .memory)
        XCTAssertEqual(relocated.path, "/org/tether/accounts/ann/")
        XCTAssertEqual(try relocated.value(forKey: "name", as: String.self), "unnamed")
    }

    func testASchemaWithAFixedPathRefusesAnotherPath() {
        XCTAssertThrowsError(
            try GSettingsHandle(
                schema: TestSchema.id, path: "/elsewhere/", schemaDirectory: TestSchema.directory, backend: .memory)
        ) {
            XCTAssertEqual($0 as? GSettingsError, .invalidPath(schema: TestSchema.id, path: "/elsewhere/"))
        }
    }

    func testAnUnknownKeyIsATypedErrorForEveryOperation() throws {
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory)
        let expected = GSettingsError.unknownKey(schema: TestSchema.id, key: "colour")
        XCTAssertThrowsError(try settings.value(forKey: "colour", as: String.self)) {
            XCTAssertEqual($0 as? GSettingsError, expected)
        }
        XCTAssertThrowsError(try settings.set("red", forKey: "colour")) {
            XCTAssertEqual($0 as? GSettingsError, expected)
        }
        XCTAssertThrowsError(try settings.observe(key: "colour", as: String.self)) {
            XCTAssertEqual($0 as? GSettingsError, expected)
        }
        XCTAssertThrowsError(try settings.channel(key: "colour", as: String.self)) {
            XCTAssertEqual($0 as? GSettingsError, expected)
        }
        XCTAssertThrowsError(try settings.bind("colour", to: Signal(value: "red"))) {
            XCTAssertEqual($0 as? GSettingsError, expected)
        }
    }

    func testASwiftTypeThatIsNotTheKeysTypeIsATypeMismatch() throws {
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory)
        XCTAssertThrowsError(try settings.key("username", as: Int.self)) {
            XCTAssertEqual(
                $0 as? GSettingsError,
                .typeMismatch(schema: TestSchema.id, key: "username", keyType: "s", valueType: "i"))
        }
        XCTAssertThrowsError(try settings.set(true, forKey: "recent")) {
            XCTAssertEqual(
                $0 as? GSettingsError,
                .typeMismatch(schema: TestSchema.id, key: "recent", keyType: "as", valueType: "b"))
        }
        XCTAssertThrowsError(try settings.observe(key: "volume", as: String.self)) {
            XCTAssertEqual(
                $0 as? GSettingsError, .typeMismatch(schema: TestSchema.id, key: "volume", keyType: "d", valueType: "s")
            )
        }
    }

    func testAValueOutsideTheKeysRangeIsRefusedAndNotStored() throws {
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory)
        let width = try settings.key("window-width", as: Int.self)
        XCTAssertThrowsError(try width.set(5)) {
            XCTAssertEqual($0 as? GSettingsError, .outOfRange(schema: TestSchema.id, key: "window-width", value: "5"))
        }
        XCTAssertThrowsError(try settings.set(Int(Int32.max) + 1, forKey: "offset")) {
            XCTAssertEqual(
                $0 as? GSettingsError, .outOfRange(schema: TestSchema.id, key: "offset", value: "\(Int(Int32.max) + 1)")
            )
        }
        XCTAssertThrowsError(try settings.set("nul\u{0}inside", forKey: "username")) {
            guard case .outOfRange = $0 as? GSettingsError else { return XCTFail("unexpected \($0)") }
        }
        XCTAssertEqual(width.value, 640, "the default is still there")
    }

    func testErrorsDescribeTheSchemaAndKey() {
        XCTAssertEqual(
            GSettingsError.unknownKey(schema: "org.example.App", key: "colour").description,
            "the GSettings schema 'org.example.App' has no key 'colour'")
        XCTAssertTrue(GSettingsError.unknownSchema("org.example.App").description.contains("glib-compile-schemas"))
    }
}
