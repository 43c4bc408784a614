import Binding
import XCTest

/// A property with a change signal (current value first), counting how often it is set.
private final class ObservableBox<Value> {
    private let subject: BehaviorSubject<Value, Never>
    private(set) var sets = 0

    init(_ value: Value) { subject = BehaviorSubject(value: value) }

    var value: Value {
        get { subject.value }
        set {
            sets += 1
            subject.send(newValue)
        }
    }

    var terminal: ChannelTerminal<Value> {
        ChannelTerminal(values: subject, set: { [weak self] in self?.value = $0 })
    }

    func finish() { subject.sendCompleted() }
}

final class ChannelTests: ResourceCheckedTestCase {
    func testFollowerTakesTheLeadersValueFirst() {
        let form = ObservableBox("typed")
        let account = ObservableBox("stored")
        form.terminal <~> account.terminal
        XCTAssertEqual(form.value, "stored", "the left side follows the right side initially")
        XCTAssertEqual(account.value, "stored")
        XCTAssertEqual(account.sets, 0, "the leader is not written back")
        XCTAssertEqual(form.sets, 1)
    }

    func testEachSideFollowsTheOtherWithoutFeedback() {
        let form = ObservableBox(0)
        let account = ObservableBox(1)
        form.terminal.bind(to: account.terminal)
        form.value = 5
        XCTAssertEqual(account.value, 5)
        account.value = 9
        XCTAssertEqual(form.value, 9)
        // form: initial sync, user set, follow = 3 sets; account: follow, user set = 2 sets. No echo.
        XCTAssertEqual(form.sets, 3)
        XCTAssertEqual(account.sets, 2)
    }

    func testLinkEndsWhenEitherSideCompletes() {
        let form = ObservableBox("a")
        let account = ObservableBox("b")
        let link = form.terminal <~> account.terminal
        account.finish()
        XCTAssertTrue(link.isDisposed)
        form.value = "changed"
        XCTAssertEqual(account.value, "b")
    }

    func testDisposingTheLinkStopsBothDirections() {
        let form = ObservableBox(1)
        let account = ObservableBox(2)
        let link = form.terminal <~> account.terminal
        link.dispose()
        form.value = 10
        account.value = 20
        XCTAssertEqual(form.value, 10)
        XCTAssertEqual(account.value, 20)
    }

    func testTerminalSignalOmitsItsOwnWritesButShowsOthers() throws {
        let box = ObservableBox("x")
        let terminal = box.terminal
        let seen = terminal.signal.record()
        terminal.send("from terminal")
        box.value = "from elsewhere"
        XCTAssertEqual(seen.values, ["x", "from elsewhere"])
        XCTAssertEqual(box.value, "from elsewhere")
    }

    func testOneWayArrowIntoATerminalSetsTheProperty() throws {
        expectLiveSubscriptions("a hot marble diagram without a terminal event keeps itself alive while subscribed")
        let scheduler = TestScheduler()
        let box = ObservableBox("-")
        box.terminal <~ (try scheduler.hot("-a-b"))
        scheduler.run()
        XCTAssertEqual(box.value, "b")
    }

    func testChannelDoesNotKeepItsOwnersAlive() {
        var form: ObservableBox<Int>? = ObservableBox(1)
        weak let weakForm = form
        let account = ObservableBox(2)
        form!.terminal <~> account.terminal
        form = nil
        XCTAssertNil(weakForm)
        account.value = 3  // the form is gone: nothing to follow, no crash
        XCTAssertEqual(account.value, 3)
    }
}

private final class Form: KeyPathObservable {
    @Observed var username = "" {
        didSet { sets += 1 }
    }
    var sets = 0
}

private final class StoredAccount: KeyPathObservable {
    @Observed var name = "" {
        didSet { sets += 1 }
    }
    var sets = 0
}

final class ObservedChannelTests: ResourceCheckedTestCase {
    func testObservedPropertiesFollowEachOtherWithoutFeedback() {
        let form = Form()
        let account = StoredAccount()
        account.name = "ann"
        account.sets = 0
        form.channel(\.username) <~> account.channel(\.name)
        XCTAssertEqual(form.username, "ann", "the left side takes the right side's value first")
        form.username = "bob"
        XCTAssertEqual(account.name, "bob")
        account.name = "cy"
        XCTAssertEqual(form.username, "cy")
        XCTAssertEqual(form.sets, 3, "initial sync, user edit, follow")
        XCTAssertEqual(account.sets, 2, "follow, user edit: nothing echoed back")
    }

    func testLinkEndsWhenOneObjectDeallocates() {
        var form: Form? = Form()
        weak let weakForm = form
        let account = StoredAccount()
        let link = form!.channel(\.username) <~> account.channel(\.name)
        form = nil
        XCTAssertNil(weakForm)
        XCTAssertTrue(link.isDisposed)
        account.name = "still fine"
    }

    func testMutablePropertyChannelJoinsAnObservedProperty() {
        let volume = MutableProperty(3)
        final class Slider: KeyPathObservable {
            @Observed var value = 7
        }
        let slider = Slider()
        volume.channel() <~> slider.channel(\.value)
        XCTAssertEqual(volume.value, 7)
        volume.value = 5
        XCTAssertEqual(slider.value, 5)
        slider.value = 9
        XCTAssertEqual(volume.value, 9)
    }
}
