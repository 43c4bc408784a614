import Bridges
import Observable
import TetherTestSupport
import XCTest

private final class TextField: TextInputSource {
    let actions = ActionRegistry<TextField>()
    var text = "" {
        didSet { sendActions(for: .editingChanged) }
    }
    /// Sets the text without telling anyone (a control updated by code that sends no event).
    func setSilently(_ newText: String) {
        actions.isEnabled = false
        text = newText
        actions.isEnabled = true
    }
}

private final class Button: ActionSource, KeyPathObservable {
    let actions = ActionRegistry<Button>()
    @Observed var isHighlighted = false
    var isLarge: Bool { false }
}

/// The RAC migration traps of the action registry: `rac_textSignal` starts with the current text, and
/// `RACObserve(button, enabled)` follows the registry's state.
final class TextInputSourceTests: XCTestCase {
    func testTextSignalStartsWithTheTextAtSubscriptionThenEachEdit() {
        let field = TextField()
        let signal = field.textSignal
        field.text = "jo"  // before subscribing: not an event of the subscription
        let log = EventLog<String, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.values, ["jo"])
        field.text = "jos"
        field.text = "josh"
        XCTAssertEqual(log.values, ["jo", "jos", "josh"])
    }

    func testTextSignalReadsTheTextWhenEachEditingEventIsSent() {
        let field = TextField()
        let log = EventLog<String, Never>()
        field.textSignal.record(into: log)
        field.setSilently("typed")
        field.sendActions(for: .editingDidEnd)
        XCTAssertEqual(log.values, ["", "typed"])
    }

    func testTextSignalCompletesWhenTheControlGoes() {
        var field: TextField? = TextField()
        let log = EventLog<String, Never>()
        field!.textSignal.record(into: log)
        field = nil
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testTheLoginFormIsValidBeforeTheFirstKeystroke() {
        let username = TextField()
        let password = TextField()
        username.text = "josh"
        password.text = "secret"
        let log = EventLog<Bool, Never>()
        Signal.combineLatest(username.textSignal, password.textSignal) { $0.count > 3 && $1.count > 3 }
            .record(into: log)
        XCTAssertEqual(log.values, [true])
        password.text = "se"
        XCTAssertEqual(log.values, [true, false])
    }

    func testObservingIsEnabledFollowsTheRegistryHoweverItIsSet() {
        let button = Button()
        let log = EventLog<Bool, Never>()
        button.observe(\.isEnabled).record(into: log)
        button.isEnabled = false
        button.actions.isEnabled = true
        XCTAssertEqual(log.values, [true, false, true])
        XCTAssertFalse(log.events.contains { $0.isTerminal }, "it does not send once and complete")
    }

    func testObservingIsEnabledCompletesWhenTheControlGoes() {
        var button: Button? = Button()
        let log = EventLog<Bool, Never>()
        button!.observe(\.isEnabled).record(into: log)
        button = nil
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testOtherBoolKeyPathsOfAControlAreObservedAsUsual() {
        let button = Button()
        let log = EventLog<Bool, Never>()
        button.observe(\.isHighlighted).record(into: log)
        button.isHighlighted = true
        XCTAssertEqual(log.values, [false, true])
    }
}
