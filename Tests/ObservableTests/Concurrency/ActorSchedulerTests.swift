import Foundation
import Observable
import TetherTestSupport
import XCTest

/// An actor whose state the scheduled actions touch (through `assumeIsolated`, which traps when the
/// action does not run on the actor) and whose deinit a test can observe.
private actor Recorder {
    var values: [Int] = []
    let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void = {}) {
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }

    func append(_ value: Int) { values.append(value) }
}

final class ActorSchedulerTests: XCTestCase {
    func testMainRunsActionsOnTheMainActorInTheOrderScheduled() async {
        let log = EventLog<Int, Never>()
        let done = expectation(description: "all ran")
        for value in 0..<200 {
            ActorScheduler.main.schedule {
                MainActor.assertIsolated()
                log.append(.next(value))
                if value == 199 { done.fulfill() }
            }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<200))
    }

    func testActionsRunIsolatedToTheGivenActor() async {
        let recorder = Recorder()
        let scheduler = ActorScheduler(recorder)
        let done = expectation(description: "all ran")
        for value in 0..<100 {
            scheduler.schedule {
                recorder.assumeIsolated { $0.values.append(value) }
                if value == 99 { done.fulfill() }
            }
        }
        await fulfillment(of: [done], timeout: 10)
        let values = await recorder.values
        XCTAssertEqual(values, Array(0..<100))
    }

    func testDisposingAnActionBeforeItRunsCancelsIt() async {
        let recorder = Recorder()
        let scheduler = ActorScheduler(recorder)
        let done = expectation(description: "ran")
        // The first action holds the actor until the second one has been disposed.
        let gate = DispatchSemaphore(value: 0)
        scheduler.schedule { gate.wait() }
        let second = scheduler.schedule { recorder.assumeIsolated { $0.values.append(2) } }
        scheduler.schedule {
            recorder.assumeIsolated { $0.values.append(3) }
            done.fulfill()
        }
        second.dispose()
        gate.signal()
        await fulfillment(of: [done], timeout: 10)
        let values = await recorder.values
        XCTAssertEqual(values, [3])
    }

    func testDelayedActionRunsOnTheActorAndACancelledOneNever() async {
        let log = EventLog<Int, Never>()
        let done = expectation(description: "delayed action ran")
        let cancelled = ActorScheduler.main.schedule(after: .milliseconds(1)) { log.append(.next(1)) }
        cancelled.dispose()
        ActorScheduler.main.schedule(after: .milliseconds(5)) {
            MainActor.assertIsolated()
            log.append(.next(2))
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(log.values, [2])
    }

    func testRepeatingActionRunsUntilDisposed() async {
        let recorder = Recorder()
        let scheduler = ActorScheduler(recorder)
        let ticks = Counter()
        let done = expectation(description: "three ticks")
        let repeating = SerialDisposable()
        repeating.inner = scheduler.schedule(after: .zero, interval: .milliseconds(1)) {
            ticks.increment()
            if ticks.value == 3 {
                repeating.dispose()
                done.fulfill()
            }
        }
        await fulfillment(of: [done], timeout: 10)
        // A later action on the same actor runs after any tick that was already queued.
        let flushed = expectation(description: "flushed")
        scheduler.schedule(after: .milliseconds(5)) { flushed.fulfill() }
        await fulfillment(of: [flushed], timeout: 10)
        XCTAssertEqual(ticks.value, 3)
    }

    func testDeliverOnMainActorKeepsOrderAndRunsIsolated() async {
        let subject = Subject<Int, Never>()
        let log = EventLog<Int, Never>()
        let done = expectation(description: "completed")
        subject.deliver(on: ActorScheduler.main).subscribeEvents { event in
            MainActor.assertIsolated()
            log.append(event)
            if event.isTerminal { done.fulfill() }
        }
        let producer = Thread {
            for value in 0..<500 { subject.send(value) }
            subject.sendCompleted()
        }
        producer.start()
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<500))
        XCTAssertEqual(log.events.last, .completed)
    }

    func testReleasingTheSchedulerReleasesItsActor() async {
        let released = expectation(description: "actor released")
        do {
            let recorder = Recorder(onDeinit: { released.fulfill() })
            let scheduler = ActorScheduler(recorder)
            let ran = expectation(description: "ran")
            scheduler.schedule { ran.fulfill() }
            await fulfillment(of: [ran], timeout: 10)
        }
        await fulfillment(of: [released], timeout: 10)
    }

    func testNowAdvancesMonotonically() {
        let first = ActorScheduler.main.now
        let second = ActorScheduler.main.now
        XCTAssertLessThanOrEqual(first, second)
        XCTAssertGreaterThan(first, .zero)
    }
}
