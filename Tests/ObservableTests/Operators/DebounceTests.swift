import Observable
import TetherTesting
import XCTest

final class DebounceTests: ResourceCheckedTestCase {
    func testDebounceSendsTheLatestValueAfterAQuietPeriod() {
        let scheduler = TestScheduler()
        let subject = Subject<String, Never>()
        let log = VirtualTimeLog<String, Never>(scheduler)
        subject.debounce(.milliseconds(300), on: scheduler).record(into: log)
        subject.send("a")
        scheduler.advance(by: .milliseconds(100))
        subject.send("b")
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(1))
        subject.send("c")
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(log.entries, [.next("b", at: 400), .next("c", at: 700)])
    }

    func testEachValueRestartsTheQuietPeriodAndReplacesTheTimer() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.milliseconds(500), on: scheduler).record(into: log)
        for value in 1...5 {
            subject.send(value)
            XCTAssertEqual(scheduler.pendingCount, 1)
            scheduler.advance(by: .milliseconds(400))
        }
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .milliseconds(100))
        XCTAssertEqual(log.entries, [.next(5, at: 2100)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCompletionSendsThePendingValueFirst() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(200))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(2, at: 200), .completed(at: 200)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries.count, 2)
    }

    func testCompletionWithNothingPendingDoesNotResendTheLastValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 1000), .completed(at: 1000)])
    }

    func testSynchronousSourceSendsOnlyItsLastValueOnCompletion() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        Signal(values: 1...4).debounce(.seconds(1), on: scheduler).record(into: log)
        XCTAssertEqual(log.entries, [.next(4, at: 0), .completed(at: 0)])
    }

    func testErrorsPassAtOnceAndDropThePendingValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.debounce(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(10))
        subject.sendError(TestError(3))
        XCTAssertEqual(log.entries, [.error(TestError(3), at: 10)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(log.entries.count, 1)
    }

    func testDisposingDisposesTheSourceAndCancelsThePendingValue() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.debounce(.seconds(1), on: scheduler).record(into: log)
        probe.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }

    func testZeroIntervalSendsOnTheNextAdvance() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.zero, on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(log.entries, [])
        scheduler.advance()
        XCTAssertEqual(log.entries, [.next(2, at: 0)])
    }

    func testCompletionReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subject.debounce(.seconds(1), on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        subject.send(1)
        XCTAssertNotNil(weakTracked)
        subject.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    func testDisposingReleasesTheSubscribersClosures() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.debounce(.seconds(1), on: scheduler).subscribe(next: { _ in _ = tracked })
        }
        subject.send(1)
        subscription?.dispose()
        XCTAssertNil(weakTracked)
    }
}
