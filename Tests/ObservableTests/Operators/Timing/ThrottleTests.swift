import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class ThrottleTests: ResourceCheckedTestCase {
    /// The output of a 500 ms throttle over `input` (one character per 100 ms).
    private func throttled(_ input: String, latest: Bool) throws -> TestRecorder<String, Never> {
        let scheduler = TestScheduler()
        let frame: Duration = .milliseconds(100)
        let values = try scheduler.hot(input, frame: frame)
        let recorder = values.throttle(.milliseconds(500), latest: latest, on: scheduler)
            .record(on: scheduler, frame: frame)
        scheduler.run()
        return recorder
    }

    func testFirstValuePassesAtOnceThenTheLatestOfTheWindow() throws {
        let input = "123------------4|"
        assertMarbles(try throttled(input, latest: true), "1----3---------4|")
    }

    func testFirstValuePassesAtOnceThenTheFirstOfTheWindow() throws {
        let input = "123------------4|"
        assertMarbles(try throttled(input, latest: false), "1----2---------4|")
    }

    func testAtMostOneValuePerIntervalUnderASteadyStream() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.throttle(.milliseconds(300), latest: true, on: scheduler).record(into: log)
        for value in 0..<10 {
            subject.send(value)
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.run()
        XCTAssertEqual(
            log.entries,
            [.next(0, at: 0), .next(2, at: 300), .next(5, at: 600), .next(8, at: 900), .next(9, at: 1200)])
    }

    func testAWindowWithoutValuesClosesAndTheNextValuePassesAtOnce() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.throttle(.seconds(1), latest: false, on: scheduler).record(into: log)
        subject.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .milliseconds(250))
        subject.send(2)
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 1250)])
    }

    func testCompletionWaitsForTheWindowToSendThePendingValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.throttle(.seconds(1), latest: true, on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(300))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 0)])
        scheduler.run()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(2, at: 1000), .completed(at: 1000)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCompletionWithNothingPendingPassesAtOnce() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.throttle(.seconds(1), latest: false, on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(300))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 0), .completed(at: 300)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testErrorsPassAtOnceAndDropThePendingValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.throttle(.seconds(1), latest: false, on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(100))
        subject.sendError(TestError(8))
        XCTAssertEqual(log.entries, [.next(1, at: 0), .error(TestError(8), at: 100)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries.count, 2)
    }

    func testDisposingDisposesTheSourceAndCancelsTheWindow() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.throttle(.seconds(1), latest: false, on: scheduler).record(into: log)
        probe.send(1)
        probe.send(2)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.values, [1])
    }

    func testDisposingReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.throttle(.seconds(1), latest: false, on: scheduler).subscribe(next: { _ in
                _ = tracked
            })
        }
        subject.send(1)
        subject.send(2)
        XCTAssertNotNil(weakTracked)
        subscription?.dispose()
        XCTAssertNil(weakTracked)
    }
}
