import Observable
import XCTest

/// The opt-in checks: reentrant sends, and main-queue targets set off the main queue.
final class DebugChecksTests: DebugTestCase {
    private final class Findings: @unchecked Sendable {
        // Safety: guarded by `lock`.
        private let lock = NSLock()
        private var stored: [DebugFinding] = []
        func append(_ finding: DebugFinding) { lock.withLock { stored.append(finding) } }
        var all: [DebugFinding] { lock.withLock { stored } }
    }

    func testAReentrantSendIsReportedWithThePipelineAndTheEventItWaitsBehind() {
        let findings = Findings()
        TetherDebug.enableChecks(.reentrancy) { findings.append($0) }
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        let subscription = subject.named("counter").map { $0 }.subscribe(next: { value in
            received.append(value)
            if value == 1 { subject.send(2) }
        })
        subject.send(1)
        XCTAssertEqual(received, [1, 2], "the reentrant value is still delivered, after the first")
        XCTAssertEqual(findings.all.count, 1)
        let message = findings.all.first?.message ?? ""
        XCTAssertEqual(findings.all.first?.check, .reentrancy)
        XCTAssertTrue(message.contains("send of next(2) into counter"), message)
        XCTAssertTrue(message.contains("delivery of next(1)"), message)
        XCTAssertTrue(message.contains("to subscriber: queued behind it"), message)
        subscription.dispose()
    }

    func testASendFromAnotherSubjectsDeliveryIsNotReentrant() {
        let findings = Findings()
        TetherDebug.enableChecks(.reentrancy) { findings.append($0) }
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        let a = first.named("first").subscribe(next: { second.send($0) })
        let b = second.named("second").subscribe(next: { _ in })
        first.send(1)
        XCTAssertTrue(findings.all.isEmpty, "\(findings.all)")
        a.dispose()
        b.dispose()
    }

    func testNothingIsReportedWhileTheChecksAreOff() {
        let findings = Findings()
        TetherDebug.enableChecks(.reentrancy) { findings.append($0) }
        TetherDebug.enableChecks([])
        let subject = Subject<Int, Never>()
        let subscription = subject.subscribe(next: { if $0 == 1 { subject.send(2) } })
        subject.send(1)
        XCTAssertTrue(findings.all.isEmpty)
        subscription.dispose()
    }

    func testAFindingIsAnInstantInTheTrace() throws {
        TetherDebug.enableChecks(.reentrancy) { _ in }
        TetherDebug.startTrace()
        let subject = Subject<Int, Never>()
        let subscription = subject.named("loop").subscribe(next: { if $0 == 1 { subject.send(2) } })
        subject.send(1)
        subscription.dispose()
        let json = TetherDebug.stopTrace()
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])
        XCTAssertEqual(events.filter { $0["cat"] as? String == "check" }.count, 1)
    }
}
