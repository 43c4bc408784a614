import Binding
import TetherTesting
import XCTest

private final class Screen: BindingTarget {
    var title = "" {
        didSet { titles.append(title) }
    }
    var titles: [String] = []
    var subtitle: String?
    var count = -1
}

final class BindTests: ResourceCheckedTestCase {
    func testBindSetsThePropertyToEveryValue() throws {
        expectLiveSubscriptions("a hot marble diagram without a terminal event keeps itself alive while subscribed")
        let scheduler = TestScheduler()
        let titles = try scheduler.hot("-a-b--c")
        let screen = Screen()
        screen.bind(\.title, to: titles)
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(screen.title, "b")
        scheduler.run()
        XCTAssertEqual(screen.titles, ["a", "b", "c"])
    }

    func testBindingEndsWhenTheSignalCompletes() throws {
        let scheduler = TestScheduler()
        let titles = try scheduler.hot("-a-|")
        let screen = Screen()
        let binding = screen.bind(\.title, to: titles)
        scheduler.advance(by: .seconds(1))
        XCTAssertFalse(binding.isDisposed)
        scheduler.run()
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(titles.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(3))])
        XCTAssertEqual(screen.title, "a")
    }

    func testDisposingTheBindingStopsIt() {
        let titles = Subject<String, Never>()
        let screen = Screen()
        let binding = screen.bind(\.title, to: titles)
        titles.send("a")
        binding.dispose()
        titles.send("b")
        XCTAssertEqual(screen.titles, ["a"])
    }

    func testBindingDoesNotKeepTheTargetAliveAndEndsOnTheNextValue() throws {
        let scheduler = TestScheduler()
        let titles = try scheduler.hot("-a--b-c")
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        let binding = screen!.bind(\.title, to: titles)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(screen?.title, "a")
        screen = nil
        XCTAssertNil(weakScreen, "the binding holds its target weakly")
        scheduler.run()
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(titles.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(4))])
    }

    func testOptionalPropertyBindsToNonOptionalValues() {
        let screen = Screen()
        screen.bind(\.subtitle, to: Signal(value: "hello"))
        XCTAssertEqual(screen.subtitle, "hello")
    }

    func testNilValueIsWrittenWhenTheSignalSendsNil() {
        let counts = Subject<Int?, Never>()
        let screen = Screen()
        screen.bind(\.count, to: counts, nilValue: 0)
        counts.send(3)
        XCTAssertEqual(screen.count, 3)
        counts.send(nil)
        XCTAssertEqual(screen.count, 0)
    }

    func testArrowOperatorBindsASlot() throws {
        let scheduler = TestScheduler()
        let screen = Screen()
        let binding = screen[\.title] <~ (try scheduler.hot("-x-y|"))
        screen[\.subtitle] <~ Signal(value: "sub")
        scheduler.run()
        XCTAssertEqual(screen.titles, ["x", "y"])
        XCTAssertEqual(screen.subtitle, "sub")
        XCTAssertTrue(binding.isDisposed)
    }

    func testSlotDoesNotKeepItsTargetAlive() {
        var screen: Screen? = Screen()
        let slot = screen![\.title]
        screen = nil
        XCTAssertNil(slot.target)
        let binding = slot <~ Signal(value: "late")
        XCTAssertTrue(binding.isDisposed)
    }

    func testBindingReleasesItsSourceClosuresWhenItEnds() {
        final class Probe: Sendable {}
        var probe: Probe? = Probe()
        weak let weakProbe = probe
        let titles = Subject<String, Never>()
        let screen = Screen()
        let captured = probe!
        let binding = screen.bind(\.title, to: titles.map { value in withExtendedLifetime(captured) { value } })
        probe = nil
        _ = consume captured
        XCTAssertNotNil(weakProbe)
        binding.dispose()
        XCTAssertNil(weakProbe)
    }
}

final class BindOnSchedulerTests: ResourceCheckedTestCase {
    func testValuesAreSetWhenTheSchedulerRuns() {
        let scheduler = TestScheduler()
        let titles = Subject<String, Never>()
        let screen = Screen()
        let binding = screen.bind(\.title, to: titles, on: scheduler)
        titles.send("a")
        titles.send("b")
        XCTAssertEqual(screen.titles, [], "nothing is set until the scheduler runs")
        scheduler.advance()
        XCTAssertEqual(screen.titles, ["a", "b"])
        titles.sendCompleted()
        scheduler.advance()
        XCTAssertTrue(binding.isDisposed)
    }

    func testTheLastValueQueuedOnTheSchedulerIsSetWhenTheSourceCompletesRightAfterIt() {
        let scheduler = TestScheduler()
        let titles = Subject<String, Never>()
        let screen = Screen()
        let binding = screen.bind(\.title, to: titles, on: scheduler)
        titles.send("last")
        titles.sendCompleted()  // on the sending thread, while "last" waits for the scheduler
        scheduler.advance()
        XCTAssertEqual(screen.titles, ["last"])
        XCTAssertTrue(binding.isDisposed)
    }

    func testValuesAreSetOnTheQueue() {
        final class Widget: BindingTarget {
            let queue: QueueScheduler
            var setOnQueue: [Bool] = []
            var title = "" {
                didSet { setOnQueue.append(queue.isCurrent) }
            }
            init(queue: QueueScheduler) { self.queue = queue }
        }
        let queue = QueueScheduler(name: "ui")
        let titles = Subject<String, Never>()
        let widget = Widget(queue: queue)
        widget.bind(\.title, to: titles, on: queue)
        titles.send("a")
        titles.send("b")
        let (title, setOnQueue) = queue.queue.sync { (widget.title, widget.setOnQueue) }
        XCTAssertEqual(title, "b")
        XCTAssertEqual(setOnQueue, [true, true])
    }
}

private final class Profile: KeyPathObservable {
    @Observed var name = ""
    @Observed var age = 0
}

final class BindObservableTests: ResourceCheckedTestCase {
    func testBindingEndsAsSoonAsAnObservableTargetDeallocates() throws {
        let scheduler = TestScheduler()
        let names = try scheduler.hot("-a--b")
        var profile: Profile? = Profile()
        weak let weakProfile = profile
        let binding = profile!.bind(\.name, to: names)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(profile?.name, "a")
        profile = nil
        XCTAssertNil(weakProfile, "the binding holds its target weakly")
        XCTAssertTrue(binding.isDisposed, "ended by `deallocated`, without waiting for the next value")
        XCTAssertEqual(names.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(2))])
    }

    func testBoundPropertyIsObservable() throws {
        let scheduler = TestScheduler()
        let profile = Profile()
        profile[\.age] <~ (try scheduler.hot("-1-2--3|", values: ["1": 1, "2": 2, "3": 3]))
        let ages = profile.observe(\.age).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(ages.marbles, "01-2--3")
    }
}

final class BindMutablePropertyTests: ResourceCheckedTestCase {
    func testArrowSetsTheProperty() throws {
        let scheduler = TestScheduler()
        let query = MutableProperty("")
        let binding = query <~ (try scheduler.hot("-s-w|"))
        let values = query.signal.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(values.marbles { $0.isEmpty ? "_" : $0 }, "_s-w")
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(query.value, "w")
    }

    func testBindingDoesNotKeepThePropertyAlive() {
        let source = Subject<Int, Never>()
        var property: MutableProperty<Int>? = MutableProperty(0)
        weak let weakProperty = property
        let binding = property!.bind(to: source)
        source.send(1)
        XCTAssertEqual(property?.value, 1)
        property = nil
        XCTAssertNil(weakProperty)
        source.send(2)
        XCTAssertTrue(binding.isDisposed)
    }
}
