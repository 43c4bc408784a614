import Observable
import TetherTesting
import XCTest

/// A class that does not adopt KeyPathObservable, with an `@Observed` property (issue 43, item 10).
final class PlainSettings {
    @Observed var theme = "light"
}

/// A `KeyPathObservable` root whose key path passes through the plain class.
final class SettingsScreen: KeyPathObservable {
    @Observed var settings = PlainSettings()
}

final class ObservedOutsideKeyPathObservableTests: ResourceCheckedTestCase {
    func testObservedPropertyOfAPlainClassReadsAndWritesAsAStoredProperty() {
        let settings = PlainSettings()
        XCTAssertEqual(settings.theme, "light")
        settings.theme = "dark"
        settings.theme += " blue"
        XCTAssertEqual(settings.theme, "dark blue")
    }

    func testKeyPathThroughAPlainClassesObservedPropertyFollowsItsChanges() {
        let screen = SettingsScreen()
        var themes: [String] = []
        let subscription = screen.observe(\.settings.theme).subscribe(next: { themes.append($0) })
        screen.settings.theme = "dark"
        let replacement = PlainSettings()
        screen.settings = replacement
        replacement.theme = "solarized"
        XCTAssertEqual(themes, ["light", "dark", "light", "solarized"])
        subscription.dispose()
    }
}
