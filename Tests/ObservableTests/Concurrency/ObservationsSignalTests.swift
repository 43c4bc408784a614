import Foundation
import Observable
import Observation
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

@MainActor @Observation.Observable
final class Scoreboard {
    var score = 0
}

/// Waits (on the main actor, up to 10 s) until `condition` holds.
@MainActor
private func waitUntilTrue(file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(10)
    while !condition() && Date() < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
    XCTAssertTrue(condition(), "not within 10 s", file: file, line: line)
}

/// `Observations` (and any `AsyncSequence`) → `Signal`, and `Signal` → ``LatestValue``, an object an
/// `@Observable` model can hold.
final class ObservationsSignalTests: ResourceCheckedTestCase {
    @MainActor
    func testObservationsSequenceBecomesASignalAndDisposingReleasesTheSubscriptionAtOnce() async {
        let board = Scoreboard()
        let log = EventLog<Int, Never>()
        let start = ResourceCounter.total
        do {
            let subscription = Signal(Observations { board.score }).record(into: log)
            await waitUntilTrue { log.values == [0] }
            board.score = 1
            await waitUntilTrue { log.values == [0, 1] }
            subscription.dispose()
        }
        // Disposal cancelled the task iterating the sequence, which ended and released everything the
        // subscription held, with no further change of `score`. (Waiting without blocking the main
        // actor, where the sequence evaluates.)
        if ResourceCounter.isEnabled {
            await waitUntilTrue { ResourceCounter.total == start }
        }
        board.score = 2
        await Task.yield()
        XCTAssertEqual(log.values, [0, 1])
    }

    func testLatestValueFollowsTheSignalAndIsTrackedByObservation() {
        let readings = Subject<Double, Never>()
        let temperature = LatestValue(readings, initial: 0)
        XCTAssertEqual(temperature.value, 0)
        let changed = Atomic<Int>(0)
        _ = withObservationTracking({ temperature.value }, onChange: { changed.add(1, ordering: .relaxed) })
        readings.send(21.5)
        XCTAssertEqual(temperature.value, 21.5)
        XCTAssertEqual(changed.load(ordering: .relaxed), 1, "a tracked read of value saw the change")
        XCTAssertTrue(temperature.isActive)
    }

    func testLatestValueCanBeObservedWithObserve() {
        let readings = Subject<Int, Never>()
        let latest = LatestValue(readings, initial: 1)
        let log = EventLog<Int, Never>()
        let subscription = latest.observe(\.value).record(into: log)
        readings.send(2)
        settleObservations()
        XCTAssertEqual(log.values, [1, 2])
        subscription.dispose()
    }

    func testSourceCompletionMakesLatestValueInactiveAndKeepsTheLastValue() {
        let readings = Subject<Int, Never>()
        let latest = LatestValue(readings, initial: 0)
        let activity = Atomic<Int>(0)
        _ = withObservationTracking({ latest.isActive }, onChange: { activity.add(1, ordering: .relaxed) })
        readings.send(4)
        readings.sendCompleted()
        XCTAssertFalse(latest.isActive)
        XCTAssertEqual(latest.value, 4)
        XCTAssertEqual(activity.load(ordering: .relaxed), 1, "isActive is tracked")
    }

    func testCancellingLatestValueDisposesTheSubscription() {
        let readings = Subject<Int, Never>()
        let latest = LatestValue(readings, initial: 0)
        let start = ResourceCounter.total
        latest.cancel()
        XCTAssertFalse(latest.isActive)
        readings.send(9)
        XCTAssertEqual(latest.value, 0)
        if ResourceCounter.isEnabled {
            XCTAssertLessThan(ResourceCounter.total, start, "the subscription's objects are released")
        }
    }

    func testReleasingLatestValueDisposesTheSubscription() {
        let readings = Subject<Int, Never>()
        let start = ResourceCounter.total
        var latest: LatestValue<Int>? = LatestValue(readings, initial: 0)
        weak let weakLatest = latest
        readings.send(1)
        latest = nil
        XCTAssertNil(weakLatest, "the subscription does not keep the holder alive")
        assertResourcesReturn(to: start)
    }

    @MainActor
    func testLatestValueMadeOnTheMainActorIsSetOnTheMainThread() async {
        let readings = Subject<Int, Never>()
        let latest = LatestValue(readings, initial: 0)
        let setOnMain = Atomic<Int>(0)
        let watcher = latest.observe(\.value).subscribe(next: { _ in
            if Thread.isMainThread { setOnMain.add(1, ordering: .relaxed) }
        })
        await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                readings.send(5)
                sent.resume()
            }
        }
        await waitUntilTrue { setOnMain.load(ordering: .relaxed) == 2 }
        XCTAssertEqual(latest.value, 5, "the first value and the set, each seen on the main thread")
        watcher.dispose()
    }
}
