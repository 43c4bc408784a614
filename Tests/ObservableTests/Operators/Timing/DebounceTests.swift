import Observable
import TetherTestSupport
import TetherTesting
import XCTest

// The timing tests read like the docs' marble diagrams: one character is one frame of 100 ms.
private let frame: Duration = .milliseconds(100)

final class DebounceTests: ResourceCheckedTestCase {
    func testDebounceSendsTheLatestValueAfterAQuietPeriod() throws {
        let scheduler = TestScheduler()
        let typed = try scheduler.hot("ab---c---|", frame: frame)
        let debounced = typed.debounce(.milliseconds(300), on: scheduler).record(on: scheduler, frame: frame)
        scheduler.run()
        // typed:      ab---c---|
        assertMarbles(debounced, "----b---c|")  // b after 300 ms of quiet, c too; a never
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

    func testCompletionSendsThePendingValueFirst() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.hot("(12)|", frame: frame)
        let debounced = numbers.debounce(.seconds(1), on: scheduler).record(on: scheduler, frame: frame)
        scheduler.advance(to: .milliseconds(400))
        XCTAssertEqual(scheduler.pendingCount, 0, "completion cancelled the quiet-period timer")
        scheduler.run()
        // numbers:    (12)|
        assertMarbles(debounced, "----(2|)")
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

    func testErrorsPassAtOnceAndDropThePendingValue() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.hot("1#", values: ["1": 1], error: TestError(3), frame: frame)
        let debounced = numbers.debounce(.seconds(1), on: scheduler).record(on: scheduler, frame: frame)
        scheduler.advance(to: frame)
        XCTAssertEqual(scheduler.pendingCount, 0, "the error cancelled the quiet-period timer")
        scheduler.run()
        // numbers:    1#
        assertMarbles(debounced, "-#")
        XCTAssertEqual(debounced.failure, TestError(3))
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
