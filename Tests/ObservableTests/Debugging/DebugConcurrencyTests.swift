import Foundation
import Observable
import TetherTestSupport
import XCTest

/// The debugging tools while several threads subscribe, dispose and send at once (run under TSan in CI).
final class DebugConcurrencyTests: DebugTestCase {
    func testSubscriptionsComingAndGoingOnManyThreadsLeaveNothingInTheGraphAndAValidTrace() throws {
        TetherDebug.enableChecks(.reentrancy) { _ in }
        TetherDebug.startTrace()
        let subject = Subject<Int, Never>()
        let stop = ManagedAtomicFlag()
        let sender = Thread {
            var value = 0
            while !stop.isSet {
                subject.send(value)
                value &+= 1
            }
        }
        sender.start()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<300 {
                let subscription = subject.named("churn.source").map { $0 &+ worker }.named("churn.stage\(worker)")
                    .subscribe(next: { _ in })
                subscription.dispose()
            }
        }
        stop.set()
        waitUntil { sender.isFinished }
        XCTAssertTrue(TetherDebug.expectNothingAlive(matching: "churn") { XCTFail($0) })
        let json = TetherDebug.stopTrace()
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])
        XCTAssertEqual(
            events.filter { $0["cat"] as? String == "subscribed" }.count, 4 * 300 * 2,
            "each subscription has two stages: churn.source and churn.stageN")
        XCTAssertEqual(
            events.filter { $0["cat"] as? String == "subscribed" }.count,
            events.filter { $0["cat"] as? String == "disposed" }.count)
    }
}

/// A flag set once from one thread and read from another.
private final class ManagedAtomicFlag: @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
