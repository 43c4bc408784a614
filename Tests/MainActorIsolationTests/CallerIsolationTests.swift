import Binding
import Bridges
import Dispatch
import Foundation
import Observable
import Testing

// This module is built with `.defaultIsolation(MainActor.self)` (Package.swift), as an app module is by
// default since Swift 6.2: every closure below is main-actor isolated unless it is `@Sendable`. The tests
// send from background threads into pipelines written here and check that nothing traps, that the
// subscriber's closures run on the main actor, in order, and that synchronous sends stay synchronous.

/// The threading article's view model (`TimeAndThreads.md`), as written there: background work in `map`,
/// the results set on `self` in `subscribe`. It trapped (`_dispatch_assert_queue_fail`) when the subscriber
/// ran on the background queue.
final class ResultsViewModel {
    private(set) var rows: [String] = []
    private(set) var deliveriesOffTheMainActor = 0
    private var subscription: ScopedDisposable?

    init(query: Subject<String, Never>) {
        subscription =
            query
            .deliver(on: QueueScheduler(priority: .background))
            .map { text in (1...3).map { "\(text) \($0)" } }  // runs in the background
            .subscribe(next: { [weak self] rows in
                if !isOnMainActor() { self?.deliveriesOffTheMainActor += 1 }
                self?.rows = rows
            })
            .scoped()
    }
}

/// A `@MainActor` model whose `@Observed` property is one end of a two-way channel.
final class VolumeModel: KeyPathObservable {
    @Observed var volume = 0 {
        didSet { if !isOnMainActor() { setsOffTheMainActor += 1 } }
    }
    var setsOffTheMainActor = 0
}

/// A control of the selector-less action registry, made and used on the main actor.
final class TapButton: ActionSource {
    let actions = ActionRegistry<TapButton>()
}

/// A command-driven control whose `isEnabled` must be set on the main actor.
final class SignInButton: CommandSource {
    let taps = Subject<Void, Never>()
    var triggers: Signal<Void, Never> { taps.signal }
    var enabledChangesOffTheMainActor = 0
    var isEnabled = true {
        didSet { if !isOnMainActor() { enabledChangesOffTheMainActor += 1 } }
    }
}

/// A main-actor view model whose async command reads its state without `await` (issue 43, item 9).
final class SignInModel {
    var username = "ann"
    var workOffTheMainActor = 0
    private(set) var signIn: Command<Void, Bool, Never>?

    init() {
        // `weak`: the model keeps the command, so a strong `self` would be a cycle (the leak check finds it).
        signIn = Command { [weak self] () async -> Bool in
            guard let self else { return false }
            if !isOnMainActor() { self.workOffTheMainActor += 1 }
            return !self.username.isEmpty
        }
    }
}

/// A `@MainActor` screen bound with `bind` and `<~`.
final class StatusView: BindingTarget {
    var status = ""
    var isBusy = false
    var offMainActorSets = 0
}

@Suite struct CallerIsolationTests {
    @Test func testResultsViewModelOfTheThreadingArticleRunsWithQueriesSentFromBackgroundThreads() async {
        let query = Subject<String, Never>()
        let model = ResultsViewModel(query: query)
        DispatchQueue.global().async { query.send("swift") }
        await runMainLoop(until: { model.rows == ["swift 1", "swift 2", "swift 3"] })
        #expect(model.deliveriesOffTheMainActor == 0)
    }

    @Test func testSubscriberWrittenOnTheMainActorRunsAtOnceWhenTheSendIsOnTheMainActor() async {
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        subject.subscribe(next: { received.append($0) })
        subject.send(1)
        #expect(received == [1])
        subject.send(2)
        #expect(received == [1, 2])
    }

    @Test func testVirtualTimeAdvancedOnTheMainActorDeliversSynchronously() async {
        let scheduler = TestScheduler()
        var ticks: [Int] = []
        let clock = Signal.interval(.seconds(1), on: scheduler).subscribe(next: { ticks.append($0) })
        scheduler.advance(by: .seconds(3))
        #expect(ticks == [0, 1, 2])
        clock.dispose()
    }

    @Test func testEventsFromABackgroundThreadAndTheMainActorKeepTheirOrder() async {
        let subject = Subject<Int, Never>()
        let log = MainActorLog(subject)
        // 1 is sent from a background thread while the main thread is blocked: its delivery is queued to
        // the main actor. 2 is sent on the main actor before that queue ran: it must wait behind 1.
        sendFromAWorkerWhileTheMainActorWaits(1, into: subject)
        subject.send(2)
        #expect(log.received == [], "2 went ahead of the queued 1")
        await runMainLoop(until: { log.received.count == 2 })
        #expect(log.received == [1, 2])
        subject.send(3)
        #expect(log.received == [1, 2, 3], "once the queue is empty, a main-actor send is delivered at once")
        #expect(log.offTheMainActor == 0)
    }

    @Test func testManyBackgroundSendsArriveOnTheMainActorInOrder() async {
        let subject = Subject<Int, Never>()
        let log = MainActorLog(subject)
        DispatchQueue.global().async {
            for value in 0..<10_000 { subject.send(value) }
        }
        await runMainLoop(until: { log.received.count == 10_000 })
        #expect(log.received == Array(0..<10_000))
        #expect(log.offTheMainActor == 0)
    }

    @Test func testDisposingOnTheMainActorDropsWhatIsStillQueuedForIt() async {
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        let subscription = subject.subscribe(next: { received.append($0) })
        sendFromAWorkerWhileTheMainActorWaits(1, into: subject)
        subscription.dispose()
        var drained = false
        DispatchQueue.main.async { drained = true }
        await runMainLoop(until: { drained })
        #expect(received == [])
    }

    @Test func testLastValueAndCompletionSentFromABackgroundThreadBothArrive() async {
        let values = Signal(value: "x").deliver(on: QueueScheduler(name: "tether.tests.background"))
        var received: [String] = []
        var completed = false
        values.subscribe(next: { received.append($0) }, completed: { completed = true })
        await runMainLoop(until: { completed })
        #expect(received == ["x"])
    }

    @Test func testBindSetsTheMainActorTargetOnTheMainActorAndKeepsTheLastValueBeforeCompletion() async {
        let view = StatusView()
        let status = Subject<String, Never>()
        let binding = view.bind(\.status, to: status)
        DispatchQueue.global().async {
            status.send("loading")
            status.send("done")
            status.sendCompleted()
        }
        await runMainLoop(until: { binding.isDisposed })
        #expect(view.status == "done")
    }

    @Test func testBindingOperatorSetsTheTargetOnTheActorThatMadeTheSlot() async {
        let view = StatusView()
        let busy = Subject<Bool, Never>()
        view[\.isBusy] <~ busy
        DispatchQueue.global().async { busy.send(true) }
        await runMainLoop(until: { view.isBusy })
        busy.send(false)
        #expect(!view.isBusy, "a send on the main actor sets the property at once")
    }

    @Test func testAsyncCommandWrittenOnTheMainActorReadsTheViewModelsStateThere() async {
        let model = SignInModel()
        guard let signIn = model.signIn else { return }
        var outcomes: [Bool] = []
        signIn.executionSignals.flatten().subscribe(next: { outcomes.append($0) })
        signIn.execute(())
        await runMainLoop(until: { outcomes == [true] && !signIn.isExecuting })
        model.username = ""
        signIn.execute(())
        await runMainLoop(until: { outcomes == [true, false] })
        #expect(model.workOffTheMainActor == 0, "the async work ran off the main actor")
    }

    @Test func testCommandMadeOnTheMainActorRunsItsWorkThereWhenExecutedFromABackgroundThread() async {
        var workOffTheMainActor = 0
        var started: [String] = []
        let search = Command { (query: String) -> Signal<String, Never> in
            if !isOnMainActor() { workOffTheMainActor += 1 }
            started.append(query)  // main-actor state, touched without a hop by hand
            return Signal(value: query.uppercased())
        }
        var results: [String] = []
        search.executionSignals.flatten().subscribe(next: { results.append($0) })
        DispatchQueue.global().async { search.execute("swift") }
        await runMainLoop(until: { results == ["SWIFT"] })
        #expect(started == ["swift"])
        #expect(workOffTheMainActor == 0)
        search.execute("linux")
        #expect(started == ["swift", "linux"], "executed on the main actor, the work starts at once")
        #expect(results == ["SWIFT", "LINUX"])
    }

    @Test func testChannelMadeOnTheMainActorSetsItsPropertyThereWhenTheOtherEndChangesOnAnotherThread() async {
        let model = VolumeModel()
        let level = MutableProperty(0)
        let link = model.channel(\.volume) <~> level.channel()
        DispatchQueue.global().async {
            for value in 1...50 { level.value = value }
        }
        await runMainLoop(until: { model.volume == 50 })
        #expect(model.setsOffTheMainActor == 0)
        model.volume = 7  // on the main actor: the other end follows at once
        #expect(level.value == 7)
        link.dispose()
    }

    @Test func testActionAddedOnTheMainActorRunsThereWhenActionsAreSentFromAnotherThread() async {
        let button = TapButton()
        var taps = 0
        var offTheMainActor = 0
        button.addAction(for: .primaryAction) { _ in
            if !isOnMainActor() { offTheMainActor += 1 }
            taps += 1
        }
        let registry = button.actions
        DispatchQueue.global().async {
            for _ in 0..<20 { registry.sendActions(for: .primaryAction, from: button) }
        }
        await runMainLoop(until: { taps == 20 })
        #expect(offTheMainActor == 0)
        button.sendActions(for: .primaryAction)
        #expect(taps == 21, "sent on the main actor, the action runs at once")
    }

    @Test func testCommandBoundOnTheMainActorSetsIsEnabledThereWhenItsWorkEndsOnAnotherThread() async {
        let button = SignInButton()
        let background = QueueScheduler(name: "tether.tests.sign-in")
        let signIn = Command { () -> Signal<Bool, Never> in
            Signal(value: true).delay(.milliseconds(5), on: background)
        }
        button.bind(command: signIn)
        button.taps.send(())
        #expect(!button.isEnabled, "disabled at once while signing in")
        await runMainLoop(until: { button.isEnabled })
        #expect(button.enabledChangesOffTheMainActor == 0)
    }

    @Test func testSubscriberWrittenInAnotherActorRunsIsolatedToIt() async {
        let counter = ActorCounter()
        let subject = Subject<Int, Never>()
        await counter.follow(subject)
        DispatchQueue.global().async {
            for value in 1...100 { subject.send(value) }
        }
        let deadline = Date().addingTimeInterval(30)
        while await counter.values.count < 100, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let values = await counter.values
        #expect(values == Array(1...100))
        let synchronous = await counter.followSynchronously()
        #expect(synchronous == [1, 2, 3], "a source sending while it starts delivers at once on the actor")
    }
}

/// An actor whose subscription's closures touch its state without `await`.
actor ActorCounter {
    var values: [Int] = []
    private var subscriptions: [any Disposable] = []

    func follow(_ subject: Subject<Int, Never>) {
        subscriptions.append(subject.subscribe(next: { value in self.values.append(value) }))
    }

    func followSynchronously() -> [Int] {
        var received: [Int] = []
        subscriptions.append(Signal(values: [1, 2, 3]).subscribe(next: { received.append($0) }))
        return received
    }
}

/// What a subscriber written on the main actor receives, and how many of its calls ran elsewhere.
final class MainActorLog {
    private(set) var received: [Int] = []
    private(set) var offTheMainActor = 0
    private var subscription: (any Disposable)?

    init(_ subject: Subject<Int, Never>) {
        subscription = subject.subscribe(next: { [weak self] value in
            if !isOnMainActor() { self?.offTheMainActor += 1 }
            self?.received.append(value)
        })
    }
}

/// Sends `value` from a worker thread while the calling thread (the main actor's) blocks until the send
/// returned: its delivery to a main-actor subscriber is then still queued to the main actor.
func sendFromAWorkerWhileTheMainActorWaits(_ value: Int, into subject: Subject<Int, Never>) {
    let sent = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        subject.send(value)
        sent.signal()
    }
    sent.wait()
}

/// Whether the caller runs on the main actor's thread: the main queue, or the main thread.
nonisolated func isOnMainActor() -> Bool {
    QueueScheduler.main.isCurrent || Thread.isMainThread
}

/// Lets the main actor run what is queued to it until `condition` holds; a 30 s watchdog turns a hang into
/// a failure.
func runMainLoop(until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    let deadline = Date().addingTimeInterval(30)
    while !condition() {
        if Date() >= deadline {
            Issue.record("condition not met within 30 s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}
