import Foundation
import TetherDemoModels
import TetherGioTestSupport
import TetherGtk
import TetherGtkDemo
import XCTest

/// The demo's window driven in-process: the view models on virtual time (`TestScheduler`), the widgets
/// real GTK 4 widgets, edited through GTK as a user's typing would.
final class DemoWindowTests: GtkTestCase {
    private let clock = TestScheduler()

    func testTheSignInButtonIsEnabledOnlyWhenBothFieldsAreValid() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let panel = demo.loginPanel
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 0)
            XCTAssertEqual(gtk_widget_has_css_class(panel.username.widgetPointer, "invalid"), 1, "yellow when invalid")
            gtk_editable_set_text(panel.username.editable, "tether")
            XCTAssertEqual(panel.login.username, "tether", "the entry's channel sets the view model")
            XCTAssertEqual(gtk_widget_has_css_class(panel.username.widgetPointer, "invalid"), 0)
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 0)
            gtk_editable_set_text(panel.password.editable, "password")
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 1)
            gtk_editable_set_text(panel.password.editable, "pas")
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 0)
        }
    }

    func testClickingSignInRunsTheCommandThenWelcomesTheUser() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let panel = demo.loginPanel
            gtk_editable_set_text(panel.username.editable, "tether")
            gtk_editable_set_text(panel.password.editable, "password")
            panel.signInButton.emit("clicked")
            XCTAssertEqual(try panel.spinner.value(of: "spinning", as: Bool.self), true)
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 0, "disabled while executing")
            XCTAssertEqual(try panel.status.value(of: "label", as: String.self), "<i>Signing in…</i>")
            clock.advance(by: .milliseconds(800))
            XCTAssertEqual(try panel.spinner.value(of: "spinning", as: Bool.self), false)
            XCTAssertEqual(
                String(cString: gtk_label_get_text(OpaquePointer(panel.status.object))), "Welcome, tether!")
        }
    }

    func testWrongCredentialsShowTheError() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let panel = demo.loginPanel
            gtk_editable_set_text(panel.username.editable, "tether")
            gtk_editable_set_text(panel.password.editable, "wrong-password")
            panel.password.emit("activate")  // Enter in the password field signs in
            clock.advance(by: .milliseconds(800))
            XCTAssertEqual(
                String(cString: gtk_label_get_text(OpaquePointer(panel.status.object))), "Wrong username or password.")
            XCTAssertEqual(gtk_widget_get_sensitive(panel.signInButton.widgetPointer), 1)
        }
    }

    func testTheLiveSearchDebouncesAndCancelsStaleSearches() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            let panel = demo.searchPanel
            let label = { (handle: GObjectHandle) in String(cString: gtk_label_get_text(OpaquePointer(handle.object))) }
            gtk_editable_set_text(panel.entry.editable, "lo")
            XCTAssertEqual(label(panel.status), "Type at least 3 letters of a city.")
            gtk_editable_set_text(panel.entry.editable, "lon")
            clock.advance(by: .milliseconds(300))  // debounced: the search for "lon" starts
            XCTAssertEqual(label(panel.status), "Searching for “lon”…")
            gtk_editable_set_text(panel.entry.editable, "lond")
            clock.advance(by: .milliseconds(300))  // a newer query: the "lon" search is cancelled
            clock.advance(by: .milliseconds(600))
            XCTAssertEqual(panel.search.stats.value, SearchStats(started: 2, completed: 1, cancelled: 1))
            XCTAssertEqual(label(panel.status), "1 city matches “lond”")
            XCTAssertTrue(label(panel.results).contains("London, United Kingdom"), label(panel.results))
            XCTAssertEqual(label(panel.stats), "Searches: 2 started · 1 cancelled · 1 completed")
        }
    }

    func testTheModelsQueryShowsInTheSearchEntry() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            demo.searchPanel.search.query = "paris"
            XCTAssertEqual(String(cString: gtk_editable_get_text(demo.searchPanel.entry.editable)), "paris")
        }
    }

    func testAPresentedWindowSettlesWithoutRewritingItsWidgets() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            demo.present()
            gtk_editable_set_text(demo.searchPanel.entry.editable, "san")
            clock.advance(by: .seconds(1))
            pump(until: { gtk_widget_get_mapped(demo.window.widgetPointer) != 0 })
            var notifications: [String] = []
            var connections: [GSignalConnection] = []
            for widget in [
                demo.loginPanel.username, demo.loginPanel.password, demo.loginPanel.signInButton,
                demo.loginPanel.status, demo.searchPanel.entry, demo.searchPanel.status, demo.searchPanel.results,
                demo.searchPanel.stats,
            ] {
                connections.append(
                    try widget.connect("notify") { _ in notifications.append(widget.typeName) })
            }
            defer {
                for connection in connections { connection.dispose() }
            }
            let until = Date().addingTimeInterval(0.3)
            pump(until: { Date() > until })
            XCTAssertLessThanOrEqual(notifications.count, 4, "idle: no binding keeps writing (\(notifications))")
        }
    }

    func testTheWindowRendersToAPNGThatChangesWithTheInput() throws {
        let clock = clock
        try onMain {
            let demo = try DemoWindow(ui: clock, background: clock)
            defer { demo.destroy() }
            demo.present()
            pump(until: { gtk_widget_get_mapped(demo.window.widgetPointer) != 0 })
            let directory = FileManager.default.temporaryDirectory
            let empty = directory.appendingPathComponent("tether-gtk-empty-\(getpid()).png").path
            let typed = directory.appendingPathComponent("tether-gtk-typed-\(getpid()).png").path
            defer {
                try? FileManager.default.removeItem(atPath: empty)
                try? FileManager.default.removeItem(atPath: typed)
            }
            drainMainContext()
            try demo.window.savePNG(to: empty)
            gtk_editable_set_text(demo.searchPanel.entry.editable, "san")
            clock.advance(by: .seconds(1))
            let drawn = Date().addingTimeInterval(0.2)
            pump(until: { Date() > drawn })
            try demo.window.savePNG(to: typed)
            let before = try Data(contentsOf: URL(fileURLWithPath: empty))
            let after = try Data(contentsOf: URL(fileURLWithPath: typed))
            XCTAssertEqual(before.prefix(8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
            XCTAssertGreaterThan(before.count, 1000)
            XCTAssertNotEqual(before, after, "the typed query and its results changed the picture")
        }
    }

    func testSavingAWidgetThatIsNotInAWindowThrows() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("alone"))
            XCTAssertThrowsError(try label.savePNG(to: "/tmp/never.png")) {
                XCTAssertEqual($0 as? SnapshotError, .notRealized(type: "GtkLabel"))
            }
        }
    }
}
