import Foundation
import Synchronization
import TetherGioTestSupport
import XCTest

/// The demo's GSettings schema (`TetherGtk/schemas`), compiled into a temporary directory once per process.
enum DemoSchema {
    static let directory: String = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schemas/org.tether.GtkDemo.gschema.xml")
        let directory = temporaryDirectory("schemas")
        try! FileManager.default.copyItem(
            atPath: source.path, toPath: directory + "/org.tether.GtkDemo.gschema.xml")
        let result = runToEnd("/usr/bin/env", ["glib-compile-schemas", directory])
        precondition(result.code == 0, "glib-compile-schemas failed: \(result.output)")
        return directory
    }()

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        TetherGioTestSupport.temporaryDirectory(prefix: "tether-gtk-demo", name)
    }
}
