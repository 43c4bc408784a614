import Dispatch
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class TestRecorderTests: ResourceCheckedTestCase {
    func testRecordsEventsWithVirtualTimestamps() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let recorder = subject.record(on: scheduler)
        subject.send(1)
        scheduler.advance(by: .seconds(2))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subject.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1, at: .zero), .next(2, at: .seconds(2)), .completed(at: .seconds(3))])
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertTrue(recorder.isCompleted)
        XCTAssertNil(recorder.failure)
        XCTAssertTrue(recorder.isDisposed, "a terminated recording has ended its subscription")
    }

    func testWithoutSchedulerEveryEventIsAtTimeZero() {
        let recorder = Signal<Int, Never>(values: [1, 2]).record()
        XCTAssertEqual(recorder.events, [.next(1, at: .zero), .next(2, at: .zero), .completed(at: .zero)])
        XCTAssertEqual(recorder.marbles, "(12|)")
    }

    func testMarblesStartAtTheRecorderStartAndEndAtTheLastEvent() {
        let scheduler = TestScheduler(start: .seconds(10))
        let subject = Subject<String, Never>()
        let recorder = subject.record(on: scheduler)
        scheduler.advance(by: .seconds(3))
        subject.send("b")
        scheduler.advance(by: .seconds(4))
        subject.send("c")
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(recorder.start, .seconds(10))
        XCTAssertEqual(recorder.marbles, "---b---c")
    }

    func testMarblesWithValueDictionaryWritesKeysAndListsUnknownValuesByDescription() {
        let subject = Subject<Int, Never>()
        let recorder = subject.record()
        subject.send(1)
        XCTAssertEqual(recorder.marbles(values: ["a": 1]), "a")
        subject.send(99)
        XCTAssertEqual(recorder.marbles(values: ["a": 1]), #"inexact (frame 1.0 seconds): "a"@0 "?(99)"@0"#)
        let other = Subject<Int, Never>()
        let otherRecorder = other.record()
        other.send(1)
        other.send(98)
        XCTAssertNotEqual(
            otherRecorder.marbles(values: ["a": 1]), recorder.marbles(values: ["a": 1]),
            "two different unknown values never draw the same")
    }

    func testDisposeStopsRecordingButKeepsEvents() {
        let subject = Subject<Int, Never>()
        let recorder = subject.record()
        subject.send(1)
        recorder.dispose()
        subject.send(2)
        XCTAssertEqual(recorder.values, [1])
        XCTAssertFalse(recorder.isTerminated)
    }

    func testReleasingTheRecorderEndsItsSubscription() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-a-b")
        var recorder: TestRecorder<String, Never>? = text.record(on: scheduler)
        weak let weakRecorder = recorder
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder?.values, ["a"])
        recorder = nil
        XCTAssertNil(weakRecorder)
        XCTAssertEqual(text.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(1))])
    }

    func testDescriptionShowsMarblesAndExactEvents() {
        let scheduler = TestScheduler()
        let subject = Subject<String, Never>()
        let recorder = subject.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        subject.send("A")
        subject.sendCompleted()
        XCTAssertEqual(
            recorder.description, "\"-(A|)\" [next(A) @ 1.0 seconds, completed @ 1.0 seconds]")
        XCTAssertEqual(
            TimedEvent<Int, TestError>.error(TestError(3), at: .seconds(2)).description,
            "error(TestError(code: 3)) @ 2.0 seconds")
    }

    func testRecordsConcurrentSendsWithoutLosingAny() {
        let subject = Subject<Int, Never>()
        let recorder = subject.record()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<500 { subject.send(worker * 1000 + index) }
        }
        XCTAssertEqual(recorder.values.count, 4000)
        XCTAssertEqual(Set(recorder.values).count, 4000)
    }
}
