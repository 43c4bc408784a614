import Binding
import Bridges
import Dispatch
import Foundation
import Observable
import Synchronization
import Testing
import TetherTestSupport

// Issue 42, bugs 2, 3 and 5: what is handed to the main actor shares the core's rules — a bounded
// backlog, a fair share of the main queue, nothing run after a disposal — and an observer of the
// caller's own runs there too. The main actor is kept busy by blocking it (no `await`), as a view model
// doing long synchronous work would.

/// The size of a source's backlog: the bound a subscriber's actor hop shares.
private let backlogLimit = 4096

@Suite struct ActorDeliveryRegressionTests {
    @Test func testAFloodIntoAMainActorSubscriberParksItsSenderAtTheBacklogsBound() async {
        let subject = Subject<Int, Never>()
        var received = 0
        let subscription = subject.subscribe(next: { _ in received += 1 })
        let total = 50_000
        // The main actor is busy for up to 3 s: without a bound the sender finishes long before (about
        // 5 million sends in 3 s were measured); with it, it parks once the backlog is full.
        let flood = Flood(total: total) { subject.send($0) }
        let sentWhileBusy = flood.sentWhileBusy(forAtMost: 3)
        #expect(sentWhileBusy < total, "the sender never waited for the busy main actor")
        #expect(
            sentWhileBusy <= 2 * backlogLimit + 2,
            "at most a source's backlog waits for the main actor (and one batch), not \(sentWhileBusy) values")
        await runMainLoop(until: { received == total })
        #expect(flood.waitUntilFinished())
        subscription.dispose()
    }

    @Test func testOtherMainQueueWorkRunsDuringAFloodIntoAMainActorSubscriber() async {
        let subject = Subject<Int, Never>()
        let total = 40_000
        var received = 0
        var receivedWhenTheBlockRan: Int?
        let subscription = subject.subscribe(next: { _ in
            received += 1
            if received == 1 {
                // Other main-queue work, queued while the flood is being delivered: it runs after the batch
                // in progress, not after the whole flood.
                DispatchQueue.main.async { receivedWhenTheBlockRan = received }
            }
        })
        DispatchQueue.global().async {
            for value in 0..<total { subject.send(value) }
        }
        await runMainLoop(until: { receivedWhenTheBlockRan != nil && received == total })
        let atBlock = receivedWhenTheBlockRan ?? total
        #expect(atBlock < total, "a block queued on the main queue during the flood ran only after it ended")
        #expect(
            atBlock <= backlogLimit + 1, "the block waited for more than the batch in progress (\(atBlock) values)")
        subscription.dispose()
    }

    @Test func testActionsQueuedForTheMainActorDoNotRunAfterTheirRemoval() async {
        let button = TapButton()
        var runs = 0
        let handle = button.addAction(for: .primaryAction) { _ in runs += 1 }
        let registry = button.actions
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for _ in 0..<1_000 { registry.sendActions(for: .primaryAction, from: button) }
            sent.signal()
        }
        sent.wait()  // the main actor is busy: all 1,000 actions wait for it
        handle.dispose()
        var drained = false
        DispatchQueue.main.async { drained = true }
        await runMainLoop(until: { drained })
        #expect(runs == 0, "actions removed on the main actor must not run afterwards")
    }

    @Test func testChannelSetsQueuedForTheMainActorDoNotRunAfterTheBindingIsDisposed() async {
        var sets = 0
        let values = Subject<Int, Never>()
        let terminal = ChannelTerminal(values: values, set: { (_: Int) in sets += 1 })
        let source = Subject<Int, Never>()
        let binding = terminal <~ source
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<1_000 { source.send(value) }
            sent.signal()
        }
        sent.wait()
        binding.dispose()
        var drained = false
        DispatchQueue.main.async { drained = true }
        await runMainLoop(until: { drained })
        #expect(sets == 0, "sets queued for the main actor must not run after the binding's disposal")
        withExtendedLifetime(terminal) {}
    }

    @Test func testAnObserverOfTheCallersOwnSubscribedOnTheMainActorRunsThere() async {
        let subject = Subject<Int, Never>()
        let recorder = RecordingObserver()
        let subscription = subject.subscribe(recorder)
        DispatchQueue.global().async {
            for value in 1...100 { subject.send(value) }
            subject.sendCompleted()
        }
        await runMainLoop(until: { recorder.completed })
        #expect(recorder.values == Array(1...100))
        #expect(recorder.offTheMainActor == 0, "the observer's send(event:) ran off the main actor")
        subscription.dispose()
    }
}

/// An `ObserverProtocol` class of the app's own, whose calls note whether they ran on the main actor (its
/// state behind a mutex, so that a call made elsewhere is counted rather than raced).
final class RecordingObserver: ObserverProtocol {
    private struct State {
        var values: [Int] = []
        var completed = false
        var offTheMainActor = 0
    }
    private let state = Mutex(State())

    nonisolated init() {}

    var values: [Int] { state.withLock { $0.values } }
    var completed: Bool { state.withLock { $0.completed } }
    var offTheMainActor: Int { state.withLock { $0.offTheMainActor } }

    nonisolated func send(event: Event<Int, Never>) {
        let onMain = isOnMainActor()
        state.withLock { state in
            if !onMain { state.offTheMainActor += 1 }
            switch event {
            case .next(let value): state.values.append(value)
            case .completed: state.completed = true
            case .error: break
            }
        }
    }
}
