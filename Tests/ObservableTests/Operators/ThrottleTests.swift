import Observable
import XCTest

final class ThrottleTests: ResourceCheckedTestCase {
    /// Sends 1, 2, 3 at 0, 100 and 200 ms, then 4 at 1,500 ms, into a 500 ms throttle.
    private func run(latest: Bool) -> [VirtualTimeLog<Int, Never>.Entry] {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.throttle(.milliseconds(500), latest: latest, on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(to: .milliseconds(100))
        subject.send(2)
        scheduler.advance(to: .milliseconds(200))
        subject.send(3)
        scheduler.advance(to: .milliseconds(1500))
        subject.send(4)
        scheduler.advance(to: .milliseconds(1600))
        subject.sendCompleted()
        scheduler.run()
        return log.entries
    }

    func testFirstValuePassesAtOnceThenTheLatestOfTheWindow() {
        XCTAssertEqual(
            run(latest: true),
            [.next(1, at: 0), .next(3, at: 500), .next(4, at: 1500), .completed(at: 1600)])
    }

    func testFirstValuePassesAtOnceThenTheFirstOfTheWindow() {
        XCTAssertEqual(
            run(latest: false),
            [.next(1, at: 0), .next(2, at: 500), .next(4, at: 1500), .completed(at: 1600)])
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
