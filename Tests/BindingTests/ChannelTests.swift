import Binding
import TetherEngine
import TetherTesting
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

    var values: Signal<Value, Never> { subject.signal }

    var terminal: ChannelTerminal<Value, Never> {
        ChannelTerminal(values: subject, set: { [weak self] in self?.value = $0 })
    }

    func finish() { subject.sendCompleted() }
}

private struct ChannelFailure: Error, Equatable {}

private let value1 = "test value 1"
private let value2 = "test value 2"
private let value3 = "test value 3"

/// RAC 2.5's `RACChannelExamples` and `RACChannelSpec`, on ``Channel``.
final class ChannelTests: ResourceCheckedTestCase {
    func testShouldNotSendAnyLeadingTerminalValueOnSubscription() {
        let channel = Channel<String, Never>()
        channel.followingTerminal.send(value1)
        let received = channel.leadingTerminal.record()
        XCTAssertEqual(received.values, [])
        channel.followingTerminal.send(value2)
        XCTAssertEqual(received.values, [value2])
    }

    func testShouldSendTheLatestFollowingTerminalValueOnSubscription() {
        let channel = Channel<String, Never>()
        channel.leadingTerminal.send(value1)
        XCTAssertEqual(channel.followingTerminal.take(1).record().values, [value1])
        channel.leadingTerminal.send(value2)
        XCTAssertEqual(channel.followingTerminal.take(1).record().values, [value2])
    }

    func testShouldSendLeadingTerminalValuesAsTheyChange() {
        let channel = Channel<String, Never>()
        let received = channel.leadingTerminal.record()
        channel.followingTerminal.send(value1)
        channel.followingTerminal.send(value2)
        channel.followingTerminal.send(value3)
        XCTAssertEqual(received.values, [value1, value2, value3])
    }

    func testShouldSendFollowingTerminalValuesAsTheyChange() {
        let channel = Channel<String, Never>()
        channel.leadingTerminal.send(value1)
        let received = channel.followingTerminal.record()
        channel.leadingTerminal.send(value2)
        channel.leadingTerminal.send(value3)
        XCTAssertEqual(received.values, [value1, value2, value3])
    }

    func testValuesSentOnATerminalDoNotReachItsOwnSubscribers() {
        let channel = Channel<String, Never>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        channel.leadingTerminal.send(value1)
        channel.followingTerminal.send(value2)
        XCTAssertEqual(leading.values, [value2])
        XCTAssertEqual(following.values, [value1])
    }

    func testShouldCompleteBothSignalsWhenTheLeadingTerminalIsCompleted() {
        let channel = Channel<String, Never>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        channel.leadingTerminal.sendCompleted()
        XCTAssertTrue(leading.isCompleted)
        XCTAssertTrue(following.isCompleted)
    }

    func testShouldCompleteBothSignalsWhenTheFollowingTerminalIsCompleted() {
        let channel = Channel<String, Never>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        channel.followingTerminal.sendCompleted()
        XCTAssertTrue(leading.isCompleted)
        XCTAssertTrue(following.isCompleted)
    }

    func testShouldReplayCompletionToNewSubscribers() {
        let channel = Channel<String, Never>()
        channel.leadingTerminal.sendCompleted()
        XCTAssertTrue(channel.leadingTerminal.record().isCompleted)
        XCTAssertTrue(channel.followingTerminal.record().isCompleted)
    }

    // RAC's channel propagates errors as it propagates completion (RACChannel.m: "Propagate errors and
    // completion to everything"); RACChannelExamples checks completion only.
    func testShouldFailBothSignalsWhenTheLeadingTerminalFails() {
        let channel = Channel<String, ChannelFailure>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        channel.leadingTerminal.sendError(ChannelFailure())
        XCTAssertEqual(leading.failure, ChannelFailure())
        XCTAssertEqual(following.failure, ChannelFailure())
    }

    func testShouldFailBothSignalsWhenTheFollowingTerminalFails() {
        let channel = Channel<String, ChannelFailure>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        channel.followingTerminal.sendError(ChannelFailure())
        XCTAssertEqual(leading.failure, ChannelFailure())
        XCTAssertEqual(following.failure, ChannelFailure())
    }

    func testShouldReplayFailureToNewSubscribers() {
        let channel = Channel<String, ChannelFailure>()
        channel.followingTerminal.sendError(ChannelFailure())
        XCTAssertEqual(channel.leadingTerminal.record().failure, ChannelFailure())
        XCTAssertEqual(channel.followingTerminal.record().failure, ChannelFailure())
    }

    func testShouldReplayTheLatestValueThenCompletionToNewFollowingSubscribers() {
        let channel = Channel<String, Never>()
        channel.leadingTerminal.send(value1)
        channel.followingTerminal.sendCompleted()
        let late = channel.followingTerminal.record()
        XCTAssertEqual(late.values, [value1], "RAC's followingTerminal is a replay subject of capacity 1")
        XCTAssertTrue(late.isCompleted)
    }

    func testValuesSentAfterTheChannelEndedAreIgnored() {
        let channel = Channel<String, Never>()
        let leading = channel.leadingTerminal.record()
        channel.followingTerminal.sendCompleted()
        channel.followingTerminal.send(value1)
        channel.leadingTerminal.send(value2)
        XCTAssertEqual(leading.values, [])
        XCTAssertEqual(channel.followingTerminal.record().values, [])
    }

    func testShouldDeallocWhenItsSubscribersAreDisposed() {
        let start = ResourceCounter.total
        var leading: (any Disposable)?
        var following: (any Disposable)?
        weak var weakTerminal: ChannelTerminal<String, Never>?
        do {
            let channel = Channel<String, Never>()
            weakTerminal = channel.leadingTerminal
            leading = channel.leadingTerminal.subscribe(completed: {})
            following = channel.followingTerminal.subscribe(completed: {})
        }
        XCTAssertNil(weakTerminal)
        if ResourceCounter.isEnabled {  // a release build of the library counts nothing
            XCTAssertGreaterThan(ResourceCounter.total, start, "the subscriptions keep the channel's state alive")
        }
        leading?.dispose()
        following?.dispose()
        (leading, following) = (nil, nil)  // a disposable counts as a resource while it is held
        assertResourcesReturn(to: start, "the channel's state is released")
    }

    func testShouldDeallocWhenItsSubscriptionsAreDisposed() {
        let leadingSource = Subject<String, Never>()
        let followingSource = Subject<String, Never>()
        let sourcesStart = ResourceCounter.total
        var subscriptions: [any Disposable] = []
        do {
            let channel = Channel<String, Never>()
            subscriptions.append(leadingSource.subscribe(channel.leadingTerminal))
            subscriptions.append(followingSource.subscribe(channel.followingTerminal))
        }
        if ResourceCounter.isEnabled {  // a release build of the library counts nothing
            XCTAssertGreaterThan(ResourceCounter.total, sourcesStart, "the subscriptions keep the channel alive")
        }
        for subscription in subscriptions { subscription.dispose() }
        subscriptions = []  // a disposable counts as a resource while it is held
        assertResourcesReturn(to: sourcesStart, "the channel is released")
    }
}

/// RAC 2.5's `RACKVOChannelSpec` ("RACKVOChannel", and `RACChannelExamples` run on it) and the view
/// channel examples, on a property's terminal.
final class PropertyChannelTests: ResourceCheckedTestCase {
    func testShouldSendTheObjectsCurrentValueWhenSubscribedToFollowingTerminal() {
        let box = ObservableBox<String?>(nil)
        let terminal = box.terminal
        XCTAssertEqual(terminal.take(1).record().values, [nil])
        box.value = value1
        XCTAssertEqual(terminal.take(1).record().values, [value1])
    }

    func testShouldSendTheObjectsNewValueOnFollowingTerminalWhenItsChanged() {
        let box = ObservableBox(value1)
        let received = box.terminal.record()
        box.value = value2
        box.value = value3
        XCTAssertEqual(received.values, [value1, value2, value3])
    }

    func testShouldSetTheObjectsValueUsingValuesSentToTheFollowingTerminal() {
        let box = ObservableBox<String?>(nil)
        let terminal = box.terminal
        terminal.send(value1)
        XCTAssertEqual(box.value, value1)
        terminal.send(value2)
        XCTAssertEqual(box.value, value2)
    }

    func testShouldBeAbleToSubscribeToSignals() {
        let box = ObservableBox("")
        let received = box.terminal.record()  // another terminal of the same property sees the sets
        Signal<String, Never> { observer in
            observer.send(value1)
            observer.send(value2)
            observer.send(value3)
            return nil
        }.subscribe(box.terminal)
        XCTAssertEqual(received.values, ["", value1, value2, value3])
    }

    func testShouldNotSendChangesMadeByTheChannelItself() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        let received = terminal.record()
        terminal.send("foo")
        terminal.send("bar")
        terminal.sendCompleted()
        XCTAssertEqual(received.values, ["x"], "only the value on subscription")
        XCTAssertEqual(box.value, "bar")
    }

    func testShouldNotEchoChangesBackToTheChannel() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        let received = terminal.record()
        terminal.send("from terminal")
        box.value = "from elsewhere"
        XCTAssertEqual(received.values, ["x", "from elsewhere"])
        XCTAssertEqual(box.value, "from elsewhere")
    }

    func testASetterThatStoresAnotherValueDoesNotStopTheChannel() {
        let box = ObservableBox(0)
        let terminal = ChannelTerminal(values: box.values, set: { [weak box] in box?.value = min($0, 100) })
        let received = terminal.record()
        terminal.send(150)
        XCTAssertEqual(box.value, 100)
        box.value = 7
        XCTAssertEqual(received.values, [0, 7], "the clamped echo is not sent; later changes are")
    }

    func testAValueNotEqualToItselfDoesNotStopTheChannel() {
        let box = ObservableBox(0.0)
        let terminal = box.terminal
        let received = terminal.record()
        terminal.send(.nan)
        box.value = 1
        XCTAssertEqual(received.values, [0, 1])
    }

    func testANewSubscriberGetsThePropertysCurrentValueEvenWhenTheTerminalSetIt() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        terminal.send("set by the terminal")
        XCTAssertEqual(terminal.take(1).record().values, ["set by the terminal"])
    }

    func testShouldCompleteBothSignalsWhenTheFollowingTerminalIsCompleted() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        let received = terminal.record()
        terminal.sendCompleted()
        XCTAssertTrue(received.isCompleted)
        terminal.send("after the end")
        XCTAssertEqual(box.value, "x", "the property is no longer set through the channel")
        box.value = "changed"
        XCTAssertEqual(received.values, ["x"])
    }

    /// What an observed property's values do when its owner deinitializes (deallocation itself:
    /// `testShouldDeallocateWhenTheTargetDeallocates`).
    func testShouldCompleteTheTerminalWhenThePropertysValuesComplete() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        let received = terminal.record()
        XCTAssertFalse(received.isCompleted)
        box.finish()
        XCTAssertTrue(received.isCompleted)
    }

    func testShouldReplayCompletionToNewSubscribers() {
        let box = ObservableBox("x")
        let terminal = box.terminal
        terminal.sendCompleted()
        let late = terminal.record()
        XCTAssertTrue(late.isCompleted)
        XCTAssertEqual(late.values, ["x"], "the last value, then completion (a replay subject of capacity 1)")
    }

    func testShouldDeallocateWhenTheTargetDeallocates() {
        final class Target: KeyPathObservable {
            @Observed var name = "x"
        }
        var target: Target? = Target()
        weak let weakTarget = target
        let received = target!.channel(\.name).record()
        XCTAssertFalse(received.isDisposed)
        target = nil
        XCTAssertNil(weakTarget)
        XCTAssertTrue(received.isCompleted)
        XCTAssertTrue(received.isDisposed, "nothing of the channel is left running")
    }

    func testOneWayArrowIntoATerminalSetsTheProperty() throws {
        expectLiveSubscriptions("a hot marble diagram without a terminal event keeps itself alive while subscribed")
        let scheduler = TestScheduler()
        let box = ObservableBox("-")
        box.terminal <~ (try scheduler.hot("-a-b"))
        scheduler.run()
        XCTAssertEqual(box.value, "b")
    }

    func testOneWayArrowEndsWhenTheChannelEnds() {
        let box = ObservableBox("-")
        let source = Subject<String, Never>()
        let terminal = box.terminal
        let binding = terminal <~ source
        source.send("a")
        terminal.sendCompleted()
        XCTAssertTrue(binding.isDisposed)
        source.send("b")
        XCTAssertEqual(box.value, "a")
    }
}

/// RAC 2.5's `RACKVOChannelSpec` ("RACChannelTo") and `<~>` between property terminals.
final class ChannelLinkTests: ResourceCheckedTestCase {
    func testShouldKeepObjectsPropertiesInSync() {
        let a = ObservableBox<String?>(nil)
        let b = ObservableBox<String?>(nil)
        a.terminal <~> b.terminal
        XCTAssertNil(a.value)
        XCTAssertNil(b.value)
        a.value = "sync it!"
        XCTAssertEqual(b.value, "sync it!")
        b.value = "sync it again!"
        XCTAssertEqual(a.value, "sync it again!")
        a.value = nil
        XCTAssertNil(b.value)
    }

    func testShouldTakeTheValueOfTheObjectBeingBoundToAtTheStart() {
        let form = ObservableBox("typed")
        let account = ObservableBox("stored")
        form.terminal <~> account.terminal
        XCTAssertEqual(form.value, "stored", "the left side follows the right side initially")
        XCTAssertEqual(account.value, "stored")
        XCTAssertEqual(account.sets, 0, "the leader is not written back")
        XCTAssertEqual(form.sets, 1)
    }

    func testShouldTakeTheLeadersValueEvenWhenItChangesWhileTheFollowerTakesIt() {
        let leader = ObservableBox("stored")
        let follower = ObservableBox("typed")
        let followerTerminal = ChannelTerminal(
            values: follower.values,
            set: { [weak follower, weak leader] value in
                follower?.value = value
                if value == "stored" { leader?.value = "newer" }  // the leader changes during the first sync
            })
        followerTerminal <~> leader.terminal
        XCTAssertEqual(follower.value, "newer")
        XCTAssertEqual(leader.value, "newer")
        leader.value = "latest"
        XCTAssertEqual(follower.value, "latest")
    }

    func testShouldUpdateTheValueEvenIfItsTheSameValueTheObjectHadBeforeItWasBound() {
        let a = ObservableBox("one")
        let b = ObservableBox("two")
        a.terminal <~> b.terminal
        XCTAssertEqual(a.value, "two")
        b.value = "one"
        XCTAssertEqual(a.value, "one")
        XCTAssertEqual(b.value, "one")
    }

    func testShouldBindTransitively() {
        let a = ObservableBox("1")
        let b = ObservableBox("2")
        let c = ObservableBox("3")
        a.terminal <~> b.terminal
        b.terminal <~> c.terminal
        XCTAssertEqual([a.value, b.value, c.value], ["3", "3", "3"])
        c.value = "1"
        XCTAssertEqual([a.value, b.value, c.value], ["1", "1", "1"])
        b.value = "2"
        XCTAssertEqual([a.value, b.value, c.value], ["2", "2", "2"])
        a.value = "3"
        XCTAssertEqual([a.value, b.value, c.value], ["3", "3", "3"])
    }

    func testShouldStopBindingWhenDisposed() {
        let a = ObservableBox("1")
        let b = ObservableBox("")
        let subscription = a.terminal.subscribe(b.terminal)
        XCTAssertEqual(b.value, "1")
        a.value = "2"
        XCTAssertEqual(b.value, "2")
        subscription.dispose()
        a.value = "3"
        XCTAssertEqual(b.value, "2")
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
        let formTerminal = form.terminal
        let formSide = formTerminal.record()
        let link = formTerminal <~> account.terminal
        account.finish()
        XCTAssertTrue(link.isDisposed)
        XCTAssertTrue(formSide.isCompleted, "the link passes the end to the other side's channel")
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

    func testBindingToATerminatedTerminalEndsTheOtherSide() {
        let channel = Channel<String, Never>()
        channel.followingTerminal.sendCompleted()
        let box = ObservableBox("x")
        let terminal = box.terminal
        let received = terminal.record()
        let link = terminal <~> channel.followingTerminal
        XCTAssertTrue(link.isDisposed)
        XCTAssertTrue(received.isCompleted)
    }

    func testAPlainChannelJoinsAProperty() {
        let channel = Channel<String, Never>()
        let model = channel.leadingTerminal.record()
        channel.leadingTerminal.send("from the model")
        let box = ObservableBox("x")
        box.terminal <~> channel.followingTerminal
        XCTAssertEqual(box.value, "from the model", "the property takes the following terminal's latest value")
        box.value = "edited"
        XCTAssertEqual(model.values, ["edited"])
        channel.leadingTerminal.send("model changed")
        XCTAssertEqual(box.value, "model changed")
        XCTAssertEqual(model.values, ["edited"], "no echo")
    }

    func testChannelDoesNotKeepItsOwnersAlive() {
        var form: ObservableBox<Int>? = ObservableBox(1)
        weak let weakForm = form
        let account = ObservableBox(2)
        form!.terminal <~> account.terminal
        XCTAssertEqual(account.sets, 0)
        form = nil
        XCTAssertNil(weakForm)
        account.value = 3  // the form is gone: nothing to follow, no crash
        XCTAssertEqual(account.sets, 1, "only the user's set: nothing comes back from the side that is gone")
    }

    // MARK: Bad input and setters that do not store what they are given

    func testLinkingATerminalToItselfIsRefused() {
        let box = ObservableBox(1)
        let terminal = box.terminal
        let received = terminal.record()
        let link = terminal <~> terminal
        XCTAssertTrue(link.isDisposed, "refused: the link is already disposed")
        box.value = 2
        terminal.send(3)
        XCTAssertEqual(box.value, 3)
        XCTAssertEqual(received.values, [1, 2], "the terminal still works, and nothing loops")
    }

    func testLinkingAChannelsTwoTerminalsIsRefused() {
        let channel = Channel<Int, Never>()
        let leading = channel.leadingTerminal.record()
        let following = channel.followingTerminal.record()
        let links = [
            channel.followingTerminal <~> channel.leadingTerminal,
            channel.leadingTerminal <~> channel.followingTerminal,
            channel.leadingTerminal <~> channel.leadingTerminal,
        ]
        XCTAssertEqual(links.map(\.isDisposed), [true, true, true])
        channel.leadingTerminal.send(1)
        channel.followingTerminal.send(2)
        XCTAssertEqual(following.values, [1])
        XCTAssertEqual(leading.values, [2])
    }

    func testASetTheSetterIgnoresDoesNotSilenceLaterChanges() {
        let box = ObservableBox(0)
        let other = ObservableBox(5)
        let terminal = ChannelTerminal(values: box.values, set: { [weak box] in if $0 >= 0 { box?.value = $0 } })
        terminal <~> other.terminal
        XCTAssertEqual(box.value, 5)
        other.value = -1  // ignored by the setter: no change, no notification
        XCTAssertEqual(box.value, 5)
        box.value = 7
        XCTAssertEqual(other.value, 7, "a change made after the ignored set is sent on")
        box.value = -1
        XCTAssertEqual(other.value, -1, "even one equal to the value the setter ignored")
    }

    func testAClampedSetDoesNotSilenceLaterChanges() {
        let box = ObservableBox(0)
        let other = ObservableBox(0)
        let terminal = ChannelTerminal(values: box.values, set: { [weak box] in box?.value = min($0, 100) })
        terminal <~> other.terminal
        other.value = 150
        XCTAssertEqual(box.value, 100)
        box.value = 42
        XCTAssertEqual(other.value, 42)
        box.value = 150
        XCTAssertEqual(other.value, 150)
    }

    func testAClampedChangeDeliveredAfterTheSetDoesNotSilenceLaterChanges() {
        let box = DeferredBox(0)
        let other = ObservableBox(0)
        let terminal = ChannelTerminal(values: box.values, set: { [weak box] in box?.store(min($0, 100)) })
        terminal <~> other.terminal
        box.deliver()
        other.value = 150
        XCTAssertEqual(box.value, 100)
        box.deliver()  // the clamped change arrives after the set has returned
        box.store(42)
        box.deliver()
        XCTAssertEqual(other.value, 42, "a later change is sent on")
        box.store(150)
        box.deliver()
        XCTAssertEqual(other.value, 150, "even one equal to the value the setter clamped")
    }

    func testNoSetHappensOnceTheLinkIsDisposedWhileTheSetIsDecided() {
        let hook = ComparisonHook()
        let a = ObservableBox(Compared(1, hook))
        let b = ObservableBox(Compared(2, hook))
        let link = a.terminal <~> b.terminal
        XCTAssertEqual(a.value.number, 2)
        let setsBefore = a.sets
        hook.onCompare = { link.dispose() }  // disposed between the set's decision and the set
        b.value = Compared(3, hook)
        hook.onCompare = nil
        XCTAssertTrue(link.isDisposed)
        XCTAssertEqual(a.value.number, 2, "the link was disposed before the set")
        XCTAssertEqual(a.sets, setsBefore)
    }
}

/// A property whose change notifications are delivered later (`deliver()`), not during the set.
private final class DeferredBox<Value> {
    private let subject: BehaviorSubject<Value, Never>
    private var pending: [Value] = []
    private(set) var value: Value

    init(_ value: Value) {
        self.value = value
        subject = BehaviorSubject(value: value)
    }

    var values: Signal<Value, Never> { subject.signal }

    func store(_ newValue: Value) {
        value = newValue
        pending.append(newValue)
    }

    func deliver() {
        let delivered = pending
        pending = []
        for value in delivered { subject.send(value) }
    }
}

/// Runs `onCompare` whenever two ``Compared`` values are compared.
private final class ComparisonHook {
    var onCompare: (() -> Void)?
}

private struct Compared: Equatable {
    let number: Int
    let hook: ComparisonHook

    init(_ number: Int, _ hook: ComparisonHook) {
        self.number = number
        self.hook = hook
    }

    static func == (lhs: Compared, rhs: Compared) -> Bool {
        lhs.hook.onCompare?()
        return lhs.number == rhs.number
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

private final class Person: KeyPathObservable {
    @Observed var name = ""
}

private final class Holder: KeyPathObservable {
    @Observed var person = Person()
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

    func testShouldKeepPropertiesIdentifiedByKeypathsInSync() {
        let a = Holder()
        let b = Holder()
        a.channel(\.person.name) <~> b.channel(\.person.name)
        a.person.name = "sync it!"
        XCTAssertEqual(b.person.name, "sync it!")
        XCTAssertFalse(a.person === b.person)
        let c = Person()
        c.name = "sync it again!"
        b.person = c
        XCTAssertEqual(a.person.name, "sync it again!", "should update when the intermediate values change")
        XCTAssertFalse(a.person === b.person)
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
