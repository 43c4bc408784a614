import Foundation
import TetherDemoModels
import TetherGioTestSupport
import TetherGtk
import TetherGtkDemo
import XCTest

/// The demo remembers its username and window size through GSettings bindings (its shipped schema, compiled
/// by the tests) and publishes its signed-in state on a D-Bus bus.
final class DemoPreferencesTests: GtkTestCase {
    private let clock = TestScheduler()

    private func memorySettings() throws -> GSettingsHandle {
        try GSettingsHandle(schema: DemoPreferences.schemaID, schemaDirectory: DemoSchema.directory, backend: .memory)
    }

    func testTheStoredUsernameAndWindowSizeAreRestoredAtStart() throws {
        let clock = clock
        let settings = try memorySettings()
        try settings.set("bob", forKey: "username")
        try settings.set(900, forKey: "window-width")
        try settings.set(610, forKey: "window-height")
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let preferences = try DemoPreferences(demo: demo, settings: settings)
            defer { withExtendedLifetime(preferences) {} }
            XCTAssertEqual(demo.loginPanel.login.username, "bob")
            XCTAssertEqual(String(cString: gtk_editable_get_text(demo.loginPanel.username.editable)), "bob")
            var width: gint = 0
            var height: gint = 0
            gtk_window_get_default_size(gtkWindow(demo), &width, &height)
            XCTAssertEqual([width, height], [900, 610])
        }
    }

    func testTypingAndResizingAreStored() throws {
        let clock = clock
        let settings = try memorySettings()
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let preferences = try DemoPreferences(demo: demo, settings: settings)
            defer { withExtendedLifetime(preferences) {} }
            gtk_editable_set_text(demo.loginPanel.username.editable, "carol")
            gtk_window_set_default_size(gtkWindow(demo), 1000, 700)
        }
        pump(until: { (try? settings.value(forKey: "window-height", as: Int.self)) == 700 })
        XCTAssertEqual(try settings.value(forKey: "username", as: String.self), "carol")
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 1000)
    }

    func testWithoutTheSchemaTheDemoExplainsAndRunsOn() {
        guard case .failure(let error) = DemoPreferences.open(backend: .memory) else {
            return XCTFail("the demo's schema is not installed system-wide in the tests")
        }
        XCTAssertEqual(error, .unknownSchema(DemoPreferences.schemaID))
        let message = DemoPreferences.fallbackMessage(for: error)
        XCTAssertTrue(message.contains("glib-compile-schemas TetherGtk/schemas"), message)
    }

    func testTheBackendIsAKeyFileUnlessGSettingsBackendIsSet() {
        XCTAssertEqual(
            "\(DemoPreferences.backend(environment: ["XDG_CONFIG_HOME": "/tmp/c"]))",
            "\(GSettingsHandle.Backend.keyfile(path: "/tmp/c/glib-2.0/settings/keyfile"))")
        XCTAssertEqual(
            "\(DemoPreferences.backend(environment: ["GSETTINGS_BACKEND": "dconf"]))",
            "\(GSettingsHandle.Backend.default)")
    }

    func testTheSignedInStateIsPublishedOnTheBusAndSeenByGdbusMonitor() throws {
        let clock = clock
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try DBusConnection(address: bus.address)
        let monitor = try bus.gdbus(["monitor", "--dest", DemoBusPublisher.busName])
        defer { monitor.terminate() }
        pump(until: { monitor.outputSoFar.contains("Monitoring signals") })
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let publisher = try DemoBusPublisher(login: demo.loginPanel.login, bus: connection)
            defer { withExtendedLifetime(publisher) {} }
            pump(until: { monitor.outputSoFar.contains("is owned by") })
            let before = try bus.gdbus(
                [
                    "call", "--dest", DemoBusPublisher.busName, "--object-path", DemoBusPublisher.path, "--method",
                    "org.freedesktop.DBus.Properties.Get", DemoBusPublisher.interface, "SignedIn",
                ]
            ).finish()
            XCTAssertEqual(before.output.trimmingCharacters(in: .whitespacesAndNewlines), "(<false>,)")
            gtk_editable_set_text(demo.loginPanel.username.editable, "tether")
            gtk_editable_set_text(demo.loginPanel.password.editable, "password")
            demo.loginPanel.signInButton.emit("clicked")
            clock.advance(by: .milliseconds(800))
            pump(until: { monitor.outputSoFar.contains("SignedInAs ('tether',)") })
            let after = try bus.gdbus(
                [
                    "call", "--dest", DemoBusPublisher.busName, "--object-path", DemoBusPublisher.path, "--method",
                    "org.freedesktop.DBus.Properties.GetAll", DemoBusPublisher.interface,
                ]
            ).finish()
            XCTAssertEqual(
                after.output.trimmingCharacters(in: .whitespacesAndNewlines),
                "({'SignedIn': <true>, 'User': <'tether'>},)")
        }
        XCTAssertTrue(monitor.outputSoFar.contains("'SignedIn': <true>"), monitor.outputSoFar)
    }
}

/// The demo's `GtkWindow *`.
@MainActor private func gtkWindow(_ demo: DemoWindow) -> UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(demo.window.widgetPointer!).assumingMemoryBound(to: GtkWindow.self)
}
