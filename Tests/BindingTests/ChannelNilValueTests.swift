import Binding
import TetherTesting
import XCTest

private final class Settings: KeyPathObservable {
    @Observed var fontSize = 12
}

/// The `nilValue` form of `RACChannelTo(target, keyPath, nilValue)`, after RAC 2.5's
/// `RACKVOChannelSpec` ("should set the nil value when receiving nil").
final class ChannelNilValueTests: ResourceCheckedTestCase {
    func testReceivingNilSetsTheNilValueAndOtherValuesAsThemselves() {
        let settings = Settings()
        let terminal = settings.channel(\.fontSize, nilValue: 10)
        terminal.send(18)
        XCTAssertEqual(settings.fontSize, 18)
        terminal.send(nil)
        XCTAssertEqual(settings.fontSize, 10)
    }

    func testItsValuesAreThePropertysCurrentValueThenItsOtherChangesAsOptionals() {
        let settings = Settings()
        let terminal = settings.channel(\.fontSize, nilValue: 10)
        let received = terminal.record()
        settings.fontSize = 14
        XCTAssertEqual(received.values, [12, 14])
    }

    func testTheNilValueItSetsIsNotSentBack() {
        let settings = Settings()
        let terminal = settings.channel(\.fontSize, nilValue: 10)
        let received = terminal.record()
        terminal.send(nil)
        terminal.send(20)
        settings.fontSize = 30
        XCTAssertEqual(received.values, [12, 30])
    }

    func testLinkedWithATerminalOfOptionalsAClearedFieldSetsTheNilValueAndStaysCleared() {
        let settings = Settings()
        let field = MutableProperty<Int?>(16)
        let link = settings.channel(\.fontSize, nilValue: 10) <~> field.channel()
        XCTAssertEqual(settings.fontSize, 16, "the following side takes the leader's value first")
        field.value = nil
        XCTAssertEqual(settings.fontSize, 10)
        XCTAssertEqual(field.value, nil, "the nil value is not sent back to the cleared field")
        settings.fontSize = 11
        XCTAssertEqual(field.value, 11)
        link.dispose()
    }

    func testAMutablePropertysTerminalSetsTheNilValue() {
        let volume = MutableProperty(0.5)
        let terminal = volume.channel(nilValue: 0.25)
        let received = terminal.record()
        terminal.send(nil)
        XCTAssertEqual(volume.value, 0.25)
        volume.value = 0.75
        XCTAssertEqual(received.values, [0.5, 0.75])
    }

    func testTheTerminalDoesNotKeepTheObjectAliveAndCompletesWhenItGoes() {
        var settings: Settings? = Settings()
        weak let weakSettings = settings
        let terminal = settings!.channel(\.fontSize, nilValue: 10)
        let received = terminal.record()
        settings = nil
        XCTAssertNil(weakSettings)
        XCTAssertTrue(received.isCompleted)
        terminal.send(nil)  // nothing left to set: ends quietly
    }
}
