import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Binding into a key (`bind`, `<~`) and two-way channels between keys and models.
final class GSettingsBindingTests: XCTestCase {
    private final class Preferences: KeyPathObservable {
        @Observed var username = ""
        @Observed var width = 0
    }

    private func memorySettings() throws -> GSettingsHandle {
        try GSettingsHandle(schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory)
    }

    func testBindStoresEveryValueUntilTheSourceCompletes() throws {
        let settings = try memorySettings()
        let widths = Subject<Int, Never>()
        try settings.bind("window-width", to: widths)
        widths.send(800)
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 800)
        widths.send(900)
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 900)
        widths.sendCompleted()
        widths.send(1000)
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 900)
    }

    func testTheBindingOperatorStoresValuesUntilDisposed() throws {
        let settings = try memorySettings()
        let username = try settings.key("username", as: String.self)
        let typed = Subject<String, Never>()
        let binding = username <~ typed
        typed.send("ann")
        XCTAssertEqual(username.value, "ann")
        binding.dispose()
        typed.send("bob")
        XCTAssertEqual(username.value, "ann")
    }

    func testValuesABindingCannotStoreAreReportedNotDropped() throws {
        let settings = try memorySettings()
        let rejected = Locked([GSettingsError]())
        let report = settings.rejectedWrites.subscribe(next: { error in rejected.modify { $0.append(error) } })
        defer { report.dispose() }
        let widths = Subject<Int, Never>()
        try settings.bind("window-width", to: widths)
        widths.send(50)
        widths.send(700)
        XCTAssertEqual(rejected.load(), [.outOfRange(schema: TestSchema.id, key: "window-width", value: "50")])
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 700)
    }

    func testAChannelLinksAKeyAndAModelBothWaysWithoutEcho() throws {
        let settings = try memorySettings()
        try settings.set("stored", forKey: "username")
        let preferences = Preferences()
        let modelValues = Locked([String]())
        let watch = preferences.observe(\.username).subscribe(next: { value in modelValues.modify { $0.append(value) } }
        )
        defer { watch.dispose() }
        let terminal = try settings.channel(key: "username", as: String.self)
        let terminalValues = Locked([String]())
        let terminalWatch = terminal.subscribe(next: { value in terminalValues.modify { $0.append(value) } })
        defer { terminalWatch.dispose() }
        let link = preferences.channel(\.username) <~> terminal
        defer { link.dispose() }
        XCTAssertEqual(preferences.username, "stored", "the model takes the setting's value first")

        preferences.username = "typed"
        XCTAssertEqual(try settings.value(forKey: "username", as: String.self), "typed")
        drainMainContext()
        XCTAssertEqual(preferences.username, "typed")
        XCTAssertEqual(terminalValues.load(), ["stored"], "the terminal's own set is not sent back to it")

        try settings.set("elsewhere", forKey: "username")
        pump(until: { preferences.username == "elsewhere" })
        drainMainContext()
        XCTAssertEqual(modelValues.load(), ["", "stored", "typed", "elsewhere"], "each value once: no feedback loop")
    }

    func testAChannelFollowsAnotherProcessAndWritesForIt() throws {
        let store = SharedKeyFile()
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        let preferences = Preferences()
        let link = preferences.channel(\.width) <~> (try settings.key("window-width", as: Int.self)).channel()
        defer { link.dispose() }
        XCTAssertEqual(preferences.width, 640)
        store.gsettings("set", TestSchema.id, "window-width", "1280")
        pump(until: { preferences.width == 1280 })
        preferences.width = 333
        g_settings_sync()
        XCTAssertEqual(store.gsettings("get", TestSchema.id, "window-width"), "333")
        drainMainContext()
        XCTAssertEqual(preferences.width, 333)
    }

    func testTwoHandlesOnOneStoreSeeEachOthersWrites() throws {
        let store = SharedKeyFile()
        let first = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        let second = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        let seen = Locked([[String]]())
        let watch = try second.observe(key: "recent", as: [String].self).subscribe(next: { value in
            seen.modify { $0.append(value) }
        })
        defer { watch.dispose() }
        try first.set(["one"], forKey: "recent")
        pump(until: { seen.load().last == ["one"] })
        XCTAssertEqual(seen.load(), [[], ["one"]])
    }
}
