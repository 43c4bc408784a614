import Binding
import TetherTesting
import XCTest

/// A button of some UI toolkit.
private final class Button: CommandSource {
    let taps = Subject<Void, Never>()
    var triggers: Signal<Void, Never> { taps.signal }
    var isEnabled = false
}

final class CommandSourceTests: ResourceCheckedTestCase {
    func testTapsExecuteTheCommandAndEnabledDrivesTheButton() throws {
        let scheduler = TestScheduler()
        let work = try scheduler.cold("--r|", values: ["r": true])
        let command = Command<Void, Bool, Never> { work.signal }
        let button = Button()
        button.bind(command: command)
        XCTAssertTrue(button.isEnabled)
        button.taps.send()
        XCTAssertFalse(button.isEnabled, "disabled while the command runs")
        button.taps.send()  // ignored: the command is disabled
        scheduler.run()
        XCTAssertTrue(button.isEnabled)
        XCTAssertEqual(work.subscriptions.count, 1)
    }

    func testTriggerValuesBecomeTheCommandInput() {
        var inputs: [String] = []
        let command = Command<String, Int, Never> { text in
            inputs.append(text)
            return Signal(value: text.count)
        }
        let button = Button()
        button.bind(command: command, input: { "tap" })
        button.taps.send()
        XCTAssertEqual(inputs, ["tap"])
    }

    func testBindingEndsWhenTheButtonGoesAway() {
        let enabled = Subject<Bool, Never>()
        let command = Command<Void, Int, Never>(enabled: enabled) { Signal(value: 1) }
        var button: Button? = Button()
        weak let weakButton = button
        let binding = button!.bind(command: command)
        button = nil
        XCTAssertNil(weakButton)
        enabled.send(false)
        XCTAssertTrue(binding.isDisposed)
    }
}
