import Bridges
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private final class Button: ActionSource {
    let actions = ActionRegistry<Button>()
    var title: String
    init(_ title: String = "OK") { self.title = title }
    func click() { sendActions(for: [.touchUpInside, .primaryAction]) }
}

/// A non-final control: subclasses send as the base class.
private class Control: ActionSource {
    let actions = ActionRegistry<Control>()
    var value = 0
}

private final class Slider: Control {
    func slide(to value: Int) {
        self.value = value
        sendActions(for: .valueChanged)
    }
}

/// A sendable control for the cross-thread test.
private final class Counter2: ActionSource, @unchecked Sendable {
    let actions = ActionRegistry<Counter2>()
}

final class ActionRegistryTests: ResourceCheckedTestCase {
    func testActionRunsForMatchingEventsWithTheTypedSender() {
        let button = Button("Save")
        var titles: [String] = []
        button.addAction(for: .primaryAction) { sender in titles.append(sender.title) }
        button.sendActions(for: .valueChanged)
        button.click()
        XCTAssertEqual(titles, ["Save"])
    }

    func testActionReceivesTheEventsThatMatched() {
        let button = Button()
        var received: [ControlEvents] = []
        button.addAction(for: [.primaryAction, .valueChanged]) { _, events in received.append(events) }
        button.click()
        button.sendActions(for: .valueChanged)
        XCTAssertEqual(received, [.primaryAction, .valueChanged])
    }

    func testActionsRunInRegistrationOrder() {
        let button = Button()
        var order: [Int] = []
        for index in 0..<5 { button.addAction(for: .primaryAction) { _ in order.append(index) } }
        button.click()
        XCTAssertEqual(order, [0, 1, 2, 3, 4])
    }

    func testRemovedActionNoLongerRuns() {
        let button = Button()
        var count = 0
        let handle = button.addAction(for: .primaryAction) { _ in count += 1 }
        button.click()
        handle.dispose()
        button.click()
        XCTAssertEqual(count, 1)
        XCTAssertTrue(handle.isDisposed)
        XCTAssertEqual(button.actions.count, 0)
    }

    func testActionRemovedByAnEarlierActionOfTheSameSendDoesNotRun() {
        let button = Button()
        var ran: [String] = []
        var second: (any Disposable)?
        button.addAction(for: .primaryAction) { _ in
            ran.append("first")
            second?.dispose()
        }
        second = button.addAction(for: .primaryAction) { _ in ran.append("second") }
        button.click()
        XCTAssertEqual(ran, ["first"])
    }

    func testRegistryDoesNotKeepTheSenderAlive() {
        weak var weakButton: Button?
        var handles: [any Disposable] = []
        let log = EventLog<Button, Never>()
        do {
            let button = Button()
            weakButton = button
            handles.append(button.addAction(for: .primaryAction) { _ in })
            handles.append(button.signal(for: .primaryAction).subscribe(next: { _ in }))
            button.signal(for: .valueChanged).record(into: log)
            button.click()
        }
        XCTAssertNil(weakButton, "actions and subscriptions must not keep their sender alive")
        XCTAssertEqual(log.events.count, 1)
        XCTAssertEqual(log.events.first?.isTerminal, true, "the control's deallocation completes its signals")
        withExtendedLifetime(handles) {}
    }

    func testSignalForEventsSendsTheSenderEachTime() {
        let button = Button("Go")
        let log = EventLog<String, Never>()
        let subscription = button.signal(for: .primaryAction).map(\.title).record(into: log)
        button.click()
        button.title = "Again"
        button.click()
        button.sendActions(for: .editingChanged)
        subscription.dispose()
        button.click()
        XCTAssertEqual(log.events, [.next("Go"), .next("Again")])
        XCTAssertEqual(button.actions.count, 0)
    }

    func testSubscribingThroughAStoredSignalAfterTheControlIsGoneCompletes() {
        var button: Button? = Button()
        let signal = button!.signal(for: .primaryAction)
        button = nil
        let log = EventLog<Button, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.events.count, 1)
        XCTAssertEqual(log.events.first?.isTerminal, true)
    }

    func testSendFromInsideAnActionIsQueuedAfterTheCurrentSend() {
        let button = Button()
        var trace: [String] = []
        button.addAction(for: .primaryAction) { sender in
            trace.append("primary-1")
            sender.sendActions(for: .valueChanged)
            trace.append("primary-1 returned")
        }
        button.addAction(for: .primaryAction) { _ in trace.append("primary-2") }
        button.addAction(for: .valueChanged) { _ in trace.append("value") }
        button.click()
        XCTAssertEqual(trace, ["primary-1", "primary-1 returned", "primary-2", "value"])
    }

    func testDisabledRegistryDropsSends() {
        let button = Button()
        var count = 0
        button.addAction(for: .primaryAction) { _ in count += 1 }
        button.isEnabled = false
        button.click()
        XCTAssertEqual(count, 0)
        button.isEnabled = true
        button.click()
        XCTAssertEqual(count, 1)
    }

    /// Issue 14, item 7: enabling from inside an observer of `enabled` takes effect at once, so a click
    /// right after it fires (it was dropped while `isEnabled` still read the previous value).
    func testEnablingFromInsideAnEnabledObserverTakesEffectAtOnce() {
        let button = Button()
        var count = 0
        button.addAction(for: .primaryAction) { _ in count += 1 }
        button.isEnabled = false
        let subscription = button.actions.enabled.subscribe(next: { enabled in
            guard !enabled else { return }
            button.isEnabled = true
            XCTAssertTrue(button.isEnabled)
            button.click()
        })
        XCTAssertEqual(count, 1, "the click right after enabling fired")
        subscription.dispose()
    }

    func testEnabledSignalSendsCurrentValueThenChanges() {
        let button = Button()
        let log = EventLog<Bool, Never>()
        button.actions.enabled.record(into: log)
        button.isEnabled = false
        button.isEnabled = false
        button.isEnabled = true
        XCTAssertEqual(log.events, [.next(true), .next(false), .next(true)])
        XCTAssertTrue(button.actions.isEnabled)
    }

    func testSubclassOfANonFinalControlSendsAsTheBaseClass() {
        let slider = Slider()
        let log = EventLog<Int, Never>()
        slider.signal(for: .valueChanged).map(\.value).record(into: log)
        slider.slide(to: 3)
        slider.slide(to: 7)
        XCTAssertEqual(log.values, [3, 7])
        XCTAssertTrue((slider as Control).actionSender === slider)
    }

    func testAllControlEventsIsTheUnionOfRegisteredEvents() {
        let button = Button()
        let a = button.addAction(for: .primaryAction) { _ in }
        button.addAction(for: [.editingChanged, .valueChanged]) { _ in }
        XCTAssertEqual(button.actions.allControlEvents, [.primaryAction, .editingChanged, .valueChanged])
        a.dispose()
        XCTAssertEqual(button.actions.allControlEvents, [.editingChanged, .valueChanged])
    }

    func testApplicationDefinedEventsWork() {
        let refresh = ControlEvents(rawValue: 1 << 24)
        XCTAssertTrue(ControlEvents.applicationReserved.contains(refresh))
        XCTAssertFalse(ControlEvents.allEditingEvents.contains(refresh))
        let button = Button()
        var count = 0
        button.addAction(for: refresh) { _ in count += 1 }
        button.sendActions(for: .allEditingEvents)
        button.sendActions(for: refresh)
        XCTAssertEqual(count, 1)
    }

    func testStandaloneRegistrySendsTheGivenSender() {
        let registry = ActionRegistry<Tracked>()
        let sender = Tracked(42)
        var ids: [Int] = []
        registry.addAction(for: .valueChanged) { ids.append($0.id) }
        registry.sendActions(for: .valueChanged, from: sender)
        XCTAssertEqual(ids, [42])
    }

    func testSendsFromSeveralThreadsNeverOverlapAndAllArrive() {
        let control = Counter2()
        let detector = OverlapDetector()
        let count = Counter()
        control.addAction(for: .valueChanged) { _ in
            detector.enter()
            count.increment()
            detector.leave()
        }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { control.sendActions(for: .valueChanged) }
        }
        XCTAssertEqual(count.value, 4_000)
        XCTAssertEqual(detector.overlaps, 0)
    }
}
