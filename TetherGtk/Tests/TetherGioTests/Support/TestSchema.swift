import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// The tests' GSettings schemas, compiled by `glib-compile-schemas` into a temporary directory once per
/// process, and a fresh temporary directory per test for the key file another process shares.
enum TestSchema {
    static let id = "org.tether.Test"
    static let relocatableID = "org.tether.Relocatable"

    static let source = """
        <schemalist>
          <schema id="org.tether.Test" path="/org/tether/test/">
            <key name="username" type="s"><default>''</default></key>
            <key name="remember-me" type="b"><default>false</default></key>
            <key name="window-width" type="i">
              <range min="100" max="10000"/>
              <default>640</default>
            </key>
            <key name="offset" type="i"><default>0</default></key>
            <key name="volume" type="d"><default>0.5</default></key>
            <key name="recent" type="as"><default>[]</default></key>
            <key name="labels" type="a{ss}"><default>{}</default></key>
            <key name="options" type="a{sv}"><default>{}</default></key>
          </schema>
          <schema id="org.tether.Relocatable">
            <key name="name" type="s"><default>'unnamed'</default></key>
          </schema>
        </schemalist>
        """

    /// The directory with `gschemas.compiled`; compiled on first use.
    static let directory: String = {
        let directory = temporaryDirectory("schemas")
        let file = directory + "/org.tether.Test.gschema.xml"
        try! source.write(toFile: file, atomically: true, encoding: .utf8)
        let status = run("/usr/bin/env", ["glib-compile-schemas", directory], environment: [:])
        precondition(status.code == 0, "glib-compile-schemas failed: \(status.output)")
        return directory
    }()

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        TetherGioTestSupport.temporaryDirectory(prefix: "tether-gio", name)
    }

    /// Runs a program to its end (the main context is not iterated meanwhile); returns its exit status and
    /// its standard output and error.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> (
        code: Int32, output: String
    ) {
        runToEnd(executable, arguments, environment: environment)
    }
}

/// A key-file store that another process reaches with `gsettings` (`GSETTINGS_BACKEND=keyfile`, its
/// `XDG_CONFIG_HOME` pointing at the same directory).
struct SharedKeyFile {
    let configHome = TestSchema.temporaryDirectory("config")

    var path: String { configHome + "/glib-2.0/settings/keyfile" }

    /// `gsettings ARGUMENTS…` in another process, on the same key file and schemas.
    @discardableResult
    func gsettings(_ arguments: String...) -> String {
        let result = TestSchema.run(
            "/usr/bin/env", ["gsettings"] + arguments,
            environment: [
                "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome,
                "GSETTINGS_SCHEMA_DIR": TestSchema.directory,
            ])
        XCTAssertEqual(result.code, 0, "gsettings \(arguments) failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
