import Binding
import Foundation
import TetherTesting
import XCTest

private final class Settings: KeyPathObservable {
    @Observed var fontSize = 12
}

/// `UserDefaults.channel(forKey:)`, after RAC 2.5's `NSUserDefaults+RACSupport` spec
/// (`rac_channelTerminalForKey:`).
final class UserDefaultsChannelTests: XCTestCase {
    private var defaults: UserDefaults!
    private let suite = "tether.tests.user-defaults-channel"

    override func setUp() {
        super.setUp()
        defaults = UserDefaults(suiteName: suite)
        defaults.removePersistentDomain(forName: suite)
    }

    override func tearDown() {
        defaults.removePersistentDomain(forName: suite)
        defaults = nil
        super.tearDown()
    }

    func testItSendsTheStoredValueFirstAndNilWhenThereIsNone() {
        defaults.set("ann", forKey: "name")
        let name: ChannelTerminal<String?, Never> = defaults.channel(forKey: "name")
        let missing: ChannelTerminal<String?, Never> = defaults.channel(forKey: "missing")
        XCTAssertEqual(name.record().values, ["ann"])
        XCTAssertEqual(missing.record().values, [nil])
    }

    func testValuesItReceivesAreStoredAndNilRemovesTheKey() {
        let fontSize = defaults.channel(forKey: "fontSize", as: Int.self)
        fontSize.send(14)
        XCTAssertEqual(defaults.object(forKey: "fontSize") as? Int, 14)
        fontSize.send(nil)
        XCTAssertNil(defaults.object(forKey: "fontSize"))
    }

    func testAValueItStoresIsNotSentBackToIt() {
        let fontSize = defaults.channel(forKey: "fontSize", as: Int.self)
        let received = fontSize.record()
        fontSize.send(14)
        XCTAssertEqual(received.values, [nil])
    }

    func testTerminalsForTheSameKeySeeEachOthersChangesAndOtherKeysDoNot() {
        let first = defaults.channel(forKey: "fontSize", as: Int.self)
        let second = defaults.channel(forKey: "fontSize", as: Int.self)
        let other = defaults.channel(forKey: "theme", as: String.self)
        let seenBySecond = second.record()
        let seenByOther = other.record()
        first.send(16)
        first.send(18)
        XCTAssertEqual(seenBySecond.values, [nil, 16, 18])
        XCTAssertEqual(seenByOther.values, [nil])
    }

    func testAStoredValueOfAnotherTypeReadsAsNil() {
        defaults.set("large", forKey: "fontSize")
        let fontSize = defaults.channel(forKey: "fontSize", as: Int.self)
        XCTAssertEqual(fontSize.record().values, [nil])
        XCTAssertEqual(defaults.string(forKey: "fontSize"), "large", "reading loses nothing")
    }

    func testLinkedWithAModelPropertyTheModelTakesTheSettingAndStoresItsChanges() {
        defaults.set(20, forKey: "fontSize")
        let settings = Settings()
        let link = settings.channel(\.fontSize, nilValue: 12) <~> defaults.channel(forKey: "fontSize", as: Int.self)
        XCTAssertEqual(settings.fontSize, 20)
        settings.fontSize = 22
        XCTAssertEqual(defaults.object(forKey: "fontSize") as? Int, 22)
        defaults.channel(forKey: "fontSize", as: Int.self).send(nil)
        XCTAssertEqual(settings.fontSize, 12, "a removed setting is the nil value")
        link.dispose()
    }
}
