import Binding
import Bridges
import TetherTesting
import XCTest

/// A control of some toolkit, with target-action through Bridges' registry.
private final class Button: ActionSource {
    let actions = ActionRegistry<Button>()
    func tap() { sendActions(for: .primaryAction) }
}

final class CommandActionSourceTests: ResourceCheckedTestCase {
    func testTappingABoundButtonExecutesTheCommand() {
        let button = Button()
        let runs = EventCounter()
        let command = Command<Void, Int, Never> { _ in
            runs.increment()
            return Signal(value: 1)
        }
        button.bind(command: command, input: { _ in })
        button.tap()
        button.tap()
        XCTAssertEqual(runs.value, 2)
    }

    func testCommandEnabledDrivesTheButtonAndADisabledButtonDoesNotExecute() {
        let button = Button()
        let allowed = MutableProperty(false)
        let runs = EventCounter()
        let command = Command<Void, Int, Never>(enabled: allowed) { _ in
            runs.increment()
            return Signal(value: 1)
        }
        button.bind(command: command, input: { _ in })
        XCTAssertFalse(button.isEnabled)
        button.tap()
        XCTAssertEqual(runs.value, 0)
        allowed.value = true
        XCTAssertTrue(button.isEnabled)
        button.tap()
        XCTAssertEqual(runs.value, 1)
    }

    func testBindingDoesNotKeepTheButtonAlive() {
        weak var weakButton: Button?
        let command = Command<Void, Int, Never> { _ in Signal(value: 1) }
        do {
            let button = Button()
            weakButton = button
            button.bind(command: command, input: { _ in })
        }
        XCTAssertNil(weakButton)
    }
}

private final class EventCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
