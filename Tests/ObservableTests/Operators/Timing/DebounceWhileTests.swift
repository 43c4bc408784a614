import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's `-throttle:valuesPassingTest:` (RACSignalSpec "-throttle:valuesPassingTest:").
final class DebounceWhileTests: ResourceCheckedTestCase {
    func testShouldThrottleValuesPassingTheTest() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler, while: { $0.isMultiple(of: 2) }).record(into: log)
        subject.send(2)
        subject.send(4)
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(4, at: 1000)])
    }

    func testShouldSendValuesFailingTheTestImmediately() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler, while: { $0.isMultiple(of: 2) }).record(into: log)
        subject.send(1)
        subject.send(3)
        XCTAssertEqual(log.entries, [.next(1, at: 0), .next(3, at: 0)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testAValueFailingTheTestCancelsAPendingValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler, while: { $0.isMultiple(of: 2) }).record(into: log)
        subject.send(2)
        scheduler.advance(by: .milliseconds(500))
        subject.send(3)
        XCTAssertEqual(log.entries, [.next(3, at: 500)])
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(log.entries, [.next(3, at: 500)])
        subject.send(4)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next(3, at: 500), .next(4, at: 3500)])
    }

    func testCompletionSendsThePendingValueFirst() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        subject.debounce(.seconds(1), on: scheduler, while: { _ in true }).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next(1, at: 100), .completed(at: 100)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testErrorsPassAtOnceAndDropThePendingValue() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<Int, TestError>(scheduler)
        subject.debounce(.seconds(1), on: scheduler, while: { _ in true }).record(into: log)
        subject.send(1)
        subject.sendError(TestError(4))
        XCTAssertEqual(log.entries, [.error(TestError(4), at: 0)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testPredicateAlwaysTrueMatchesDebounce() {
        let scheduler = TestScheduler()
        let subject = Subject<String, Never>()
        let log = VirtualTimeLog<String, Never>(scheduler)
        subject.debounce(.milliseconds(300), on: scheduler, while: { _ in true }).record(into: log)
        subject.send("a")
        scheduler.advance(by: .milliseconds(100))
        subject.send("b")
        scheduler.advance(by: .milliseconds(300))
        subject.send("c")
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(log.entries, [.next("b", at: 400), .next("c", at: 700)])
    }

    func testDisposingDisposesTheSourceAndCancelsThePendingValue() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<Int, Never>(scheduler)
        let subscription = probe.signal.debounce(.seconds(1), on: scheduler, while: { _ in true })
            .record(into: log)
        probe.send(1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }
}
