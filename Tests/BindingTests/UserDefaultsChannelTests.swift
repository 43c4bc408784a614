import Binding
import Foundation
import TetherTestSupport
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

    private var previousHandler: (@Sendable (ObservationWarning) -> Void)?

    override func setUp() {
        super.setUp()
        // Every terminal made on Linux reports that direct sets are not followed (pinned below); keep the
        // test output to the other warnings.
        let previous = ObservationWarning.handler
        previousHandler = previous
        ObservationWarning.handler = { warning in
            if warning.kind != .userDefaultsChangesNotPosted { previous(warning) }
        }
        defaults = UserDefaults(suiteName: suite)
        defaults.removePersistentDomain(forName: suite)
    }

    override func tearDown() {
        if let previousHandler { ObservationWarning.handler = previousHandler }
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

    // RAC: "should update the channel when the value is changed directly" — through the change
    // notification, which Foundation posts on Darwin and which Linux code posts itself.
    func testADirectSetFollowedByTheChangeNotificationIsFollowed() {
        let fontSize = defaults.channel(forKey: "fontSize", as: Int.self)
        let received = fontSize.record()
        defaults.set(16, forKey: "fontSize")
        #if !canImport(Darwin)
            XCTAssertEqual(received.values, [nil], "Linux's Foundation posts nothing on set")
            NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        #endif
        XCTAssertEqual(received.values, [nil, 16])
    }

    func testANotificationForAnotherDefaultsObjectIsNotFollowed() {
        let fontSize = defaults.channel(forKey: "fontSize", as: Int.self)
        let received = fontSize.record()
        defaults.set(16, forKey: "fontSize")
        let other = UserDefaults(suiteName: suite + ".other")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: other)
        #if !canImport(Darwin)
            XCTAssertEqual(received.values, [nil])
        #endif
    }

    func testOnLinuxMakingATerminalWarnsThatDirectSetsAreNotFollowed() throws {
        #if canImport(Darwin)
            throw XCTSkip("Foundation posts UserDefaults.didChangeNotification on Darwin")
        #else
            let reported = Locked<[ObservationWarning]>([])
            let previous = ObservationWarning.handler
            ObservationWarning.handler = { warning in
                guard warning.kind == .userDefaultsChangesNotPosted else { return previous(warning) }
                reported.mutate { $0.append(warning) }
            }
            defer { ObservationWarning.handler = previous }
            _ = defaults.channel(forKey: "fontSize", as: Int.self)
            XCTAssertEqual(reported.value.count, 1)
            let message = reported.value.first?.message ?? ""
            XCTAssertTrue(message.contains("\"fontSize\"") && message.contains("didChangeNotification"), message)
        #endif
    }
}
