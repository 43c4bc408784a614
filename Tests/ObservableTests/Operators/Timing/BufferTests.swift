import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's `-bufferWithTime:onScheduler:` (RACSignalSpec "-bufferWithTime:").
final class BufferTests: ResourceCheckedTestCase {
    func testShouldBufferNexts() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        subject.buffer(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(log.entries, [])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next([1, 2], at: 1000)])
        subject.send(3)
        subject.send(4)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, [.next([1, 2], at: 1000), .next([3, 4], at: 2000)])
    }

    func testShouldNotPerformBufferingUntilAValueIsSent() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        subject.buffer(.seconds(1), on: scheduler).record(into: log)
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .milliseconds(2500))
        subject.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(by: .milliseconds(500))
        subject.send(2)
        // The second value does not restart the timer: it started with the first value of the buffer.
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(log.entries, [.next([1, 2], at: 3500)])
        // An empty period sends nothing and arms nothing.
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(log.entries.count, 1)
    }

    func testShouldFlushAnyBufferedNextsUponCompletion() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        subject.buffer(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .milliseconds(300))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next([1], at: 300), .completed(at: 300)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testCompletionWithAnEmptyBufferSendsOnlyTheCompletion() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        subject.buffer(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.sendCompleted()
        XCTAssertEqual(log.entries, [.next([1], at: 1000), .completed(at: 1000)])
    }

    func testSynchronousSourceSendsOneBufferOnCompletion() {
        let scheduler = TestScheduler()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        Signal(values: 1...3).buffer(.seconds(1), on: scheduler).record(into: log)
        XCTAssertEqual(log.entries, [.next([1, 2, 3], at: 0), .completed(at: 0)])
    }

    func testErrorsPassAtOnceAndDropTheBuffer() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let log = VirtualTimeLog<[Int], TestError>(scheduler)
        subject.buffer(.seconds(1), on: scheduler).record(into: log)
        subject.send(1)
        subject.sendError(TestError(2))
        XCTAssertEqual(log.entries, [.error(TestError(2), at: 0)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingDisposesTheSourceAndCancelsTheTimer() {
        let scheduler = TestScheduler()
        let probe = ProbeSource<Int, Never>()
        let log = VirtualTimeLog<[Int], Never>(scheduler)
        let subscription = probe.signal.buffer(.seconds(1), on: scheduler).record(into: log)
        probe.send(1)
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(probe.disposals, 1)
        scheduler.run()
        XCTAssertEqual(log.entries, [])
    }
}
