import Foundation
import Observable
import XCTest

/// `TetherDebug.startTrace()` / `stopTrace(to:)`: Chrome trace-event JSON, parsed back.
final class TraceTests: DebugTestCase {
    private func parse(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let root = try XCTUnwrap(object as? [String: Any], file: file, line: line)
        return try XCTUnwrap(root["traceEvents"] as? [[String: Any]], file: file, line: line)
    }

    func testATraceIsValidJSONWithASliceForEachCallback() throws {
        TetherDebug.startTrace()
        Signal(values: [1, 2, 3]).named("numbers").map { $0 * 2 }.named("doubled").subscribe(next: { _ in })
        let events = try parse(TetherDebug.stopTrace())
        let slices = events.filter { $0["ph"] as? String == "X" }
        // Each of 3 values and the completion passes 2 named stages.
        XCTAssertEqual(slices.count, 8)
        XCTAssertEqual(slices.filter { $0["name"] as? String == "doubled" }.count, 4)
        XCTAssertEqual(
            slices.filter { $0["name"] as? String == "numbers" }.compactMap {
                ($0["args"] as? [String: Any])?["event"] as? String
            },
            ["next(1)", "next(2)", "next(3)", "completed"])
        for slice in slices {
            XCTAssertNotNil(slice["ts"] as? Double, "\(slice)")
            XCTAssertGreaterThanOrEqual(slice["dur"] as? Double ?? -1, 0)
            XCTAssertNotNil(slice["tid"] as? Int)
            XCTAssertNotNil((slice["args"] as? [String: Any])?["subscription"])
        }
        XCTAssertEqual(Set(slices.compactMap { $0["cat"] as? String }), ["next", "completed"])
    }

    func testAnOuterStagesSliceEnclosesTheStagesItFeeds() throws {
        TetherDebug.startTrace()
        Signal(value: 1).named("nest").map { $0 }.named("nest.map").subscribe(next: { _ in })
        let slices = try parse(TetherDebug.stopTrace()).filter {
            $0["ph"] as? String == "X" && $0["cat"] as? String == "next"
        }
        let source = try XCTUnwrap(slices.first { $0["name"] as? String == "nest" })
        let stage = try XCTUnwrap(slices.first { $0["name"] as? String == "nest.map" })
        let (sourceStart, sourceEnd) = (source["ts"] as! Double, source["ts"] as! Double + (source["dur"] as! Double))
        let (stageStart, stageEnd) = (stage["ts"] as! Double, stage["ts"] as! Double + (stage["dur"] as! Double))
        XCTAssertLessThanOrEqual(sourceStart, stageStart)
        XCTAssertGreaterThanOrEqual(sourceEnd + 0.001, stageEnd)
    }

    func testUnnamedStagesAddNoSlices() throws {
        TetherDebug.startTrace()
        Signal(values: [1, 2]).named("only").map { $0 }.filter { $0 > 0 }.subscribe(next: { _ in })
        let slices = try parse(TetherDebug.stopTrace()).filter { $0["ph"] as? String == "X" }
        XCTAssertEqual(Set(slices.compactMap { $0["name"] as? String }), ["only"])
        XCTAssertEqual(slices.count, 3)
    }

    func testSubscribingAndDisposingAreInstants() throws {
        TetherDebug.startTrace()
        let subject = Subject<Int, Never>()
        subject.named("life").subscribe(next: { _ in }).dispose()
        let instants = try parse(TetherDebug.stopTrace()).filter { $0["ph"] as? String == "i" }
        XCTAssertEqual(instants.compactMap { $0["name"] as? String }, ["subscribed life", "disposed life"])
    }

    func testEachThreadIsNamedAndEventsCarryTheirThread() throws {
        TetherDebug.startTrace()
        let scheduler = QueueScheduler(name: "trace-test")
        let delivered = expectation(description: "delivered")
        let subject = Subject<Int, Never>()
        let subscription = subject.named("hop").deliver(on: scheduler).named("hop.deliver")
            .subscribe(next: { _ in delivered.fulfill() })
        subject.send(1)
        wait(for: [delivered], timeout: 10)
        scheduler.queue.sync {}
        subscription.dispose()
        let events = try parse(TetherDebug.stopTrace())
        let threads = events.filter { $0["ph"] as? String == "M" }
        XCTAssertGreaterThanOrEqual(threads.count, 2, "the sending thread and the scheduler's")
        let sent = try XCTUnwrap(events.first { $0["name"] as? String == "hop" && $0["ph"] as? String == "X" })
        let hopped = try XCTUnwrap(
            events.first { $0["name"] as? String == "hop.deliver" && $0["ph"] as? String == "X" })
        XCTAssertNotEqual(sent["tid"] as? Int, hopped["tid"] as? Int)
    }

    func testStopTraceWritesTheFileAndStopsRecording() throws {
        TetherDebug.startTrace()
        Signal(values: [1]).named("file").subscribe()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-trace-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let count = try TetherDebug.stopTrace(to: url)
        let events = try parse(String(decoding: try Data(contentsOf: url), as: UTF8.self))
        XCTAssertEqual(events.filter { $0["ph"] as? String != "M" }.count, count)
        Signal(values: [2]).named("after").subscribe()
        TetherDebug.startTrace()
        let next = try parse(TetherDebug.stopTrace())
        XCTAssertTrue(next.isEmpty, "nothing recorded between traces: \(next)")
    }

    func testNamesWithQuotesAndNewlinesStayValidJSON() throws {
        TetherDebug.startTrace()
        Signal(values: ["a\"b\nc\\d"]).named("odd \"name\"\t").subscribe()
        let events = try parse(TetherDebug.stopTrace())
        let slice = try XCTUnwrap(events.first { $0["cat"] as? String == "next" })
        XCTAssertEqual(slice["name"] as? String, "odd \"name\"\t")
        XCTAssertEqual((slice["args"] as? [String: Any])?["event"] as? String, "next(a\"b\nc\\d)")
    }
}
