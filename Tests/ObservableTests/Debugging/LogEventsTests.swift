import Observable
import TetherTestSupport
import XCTest

/// `log(_:events:to:)`: per-event filters, the pipeline's name, the thread and queue, a closure sink.
final class LogEventsTests: DebugTestCase {
    private final class Lines: @unchecked Sendable {
        // Safety: appended on one thread at a time (the test waits for the queue before reading).
        var entries: [LogEntry] = []
    }

    func testEveryEventKindIsReportedInOrderWithAll() {
        let lines = Lines()
        Signal(values: [1, 2]).named("numbers").log(events: .all) { lines.entries.append($0) }.subscribe()
        XCTAssertEqual(
            lines.entries.map(\.event), ["subscribed", "next(1)", "next(2)", "completed", "disposed"])
        XCTAssertEqual(lines.entries.map(\.kind), [.subscribed, .next, .next, .completed, .disposed])
        XCTAssertEqual(Set(lines.entries.map(\.pipeline)), ["numbers"])
    }

    func testOnlyTheChosenEventsAreReported() {
        let lines = Lines()
        let subject = Subject<Int, TestError>()
        let subscription = subject.named("only").log(events: [.error, .disposed]) { lines.entries.append($0) }
            .subscribe(next: { _ in })
        subject.send(1)
        subject.sendError(TestError(7))
        XCTAssertEqual(lines.entries.map(\.kind), [.error, .disposed])
        XCTAssertEqual(lines.entries.first?.event, "error(\(TestError(7)))")
        subscription.dispose()
        XCTAssertEqual(lines.entries.count, 2, "disposed is reported once")
    }

    func testEventsPassUnchanged() {
        var values: [Int] = []
        var completed = false
        Signal(values: [1, 2, 3]).log(events: []) { _ in XCTFail("nothing chosen") }
            .subscribe(next: { values.append($0) }, completed: { completed = true })
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertTrue(completed)
    }

    func testTheEntryNamesThePipelineThroughOperatorsAndCarriesThePrefix() {
        let lines = Lines()
        Signal(value: true).named("login.valid").map { !$0 }.log("form", events: .next) { lines.entries.append($0) }
            .subscribe()
        XCTAssertEqual(lines.entries.map(\.pipeline), ["login.valid.map"])
        XCTAssertEqual(lines.entries.first?.prefix, "form")
        XCTAssertEqual(
            lines.entries.first.map { String($0.description.prefix(39)) }, "[form] login.valid.map #1 next(false) ·")
    }

    func testSubscriptionsAreNumberedPerStage() {
        let lines = Lines()
        let logged = Signal(value: 1).log(events: .subscribed) { lines.entries.append($0) }
        logged.subscribe()
        logged.subscribe()
        XCTAssertEqual(lines.entries.map(\.subscription), [1, 2])
    }

    func testTheEntryTellsTheThreadAndTheSchedulersQueue() {
        let lines = Lines()
        let scheduler = QueueScheduler(name: "log-test-queue")
        let done = expectation(description: "completed")
        let subject = Subject<Int, Never>()
        let subscription = subject.deliver(on: scheduler).log(events: .next) { lines.entries.append($0) }
            .subscribe(next: { _ in done.fulfill() })
        subject.send(1)
        wait(for: [done], timeout: 10)
        scheduler.queue.sync {}
        XCTAssertEqual(lines.entries.first?.queue, "log-test-queue")
        XCTAssertEqual(lines.entries.first?.isMainQueue, false)
        XCTAssertNotEqual(lines.entries.first?.thread, "main")
        subscription.dispose()
    }

    func testTheOldLogStillPrintsPrefixedLines() {
        let lines = Locked<[String]>([])
        Signal(values: [1]).log("numbers", to: { lines.append($0) }).subscribe()
        XCTAssertEqual(lines.values, ["numbers next(1)", "numbers completed"])
    }
}
