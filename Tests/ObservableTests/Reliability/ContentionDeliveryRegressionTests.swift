import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Issue 14 (and benchmark W10): many threads sending into one subject under contention deliver every
/// value exactly once, in each sender's order, and the backlog stays bounded — when the last sender's
/// `send` has returned, everything sent has been delivered, except what a subscribing or disposing
/// thread that owns the gate is still delivering: at most the batch it took plus the bounded queue
/// (DESIGN.md guarantee 3: senders help drain or wait; nothing is lost). Version 1 had delivered 2–5 %.
///
/// A hang becomes a failure through `runThreads`' watchdog; nothing asserts a duration.
final class ContentionDeliveryRegressionTests: ResourceCheckedTestCase {
    /// What the permanent subscriber saw, per sender. Touched only inside the subject's serialized
    /// deliveries; read after every thread has returned.
    private final class SequenceRecord: @unchecked Sendable {
        var last: [Int]
        var gaps = 0
        var repeatedOrReordered = 0

        init(senders: Int) { last = Array(repeating: -1, count: senders) }

        func see(sender: Int, sequence: Int) {
            let previous = last[sender]
            if sequence <= previous {
                repeatedOrReordered += 1
            } else if sequence != previous + 1 {
                gaps += 1
            }
            last[sender] = sequence
        }
    }

    /// 8 threads × 100,000 (scaled) sends into one `Subject` with one permanent subscriber, and
    /// `churners` more threads subscribing and disposing in a loop while the senders run.
    private func assertEightSendersDeliverEverythingBeforeTheyReturn(
        churners: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let senders = 8
        let perSender = StressScale.scaled(100_000)
        let total = senders * perSender
        // A value is `sender << 32 | sequence`.
        let subject = Subject<Int, Never>()
        let record = SequenceRecord(senders: senders)
        let delivered = Atomic<Int>(0)
        let monitor = GrammarMonitor<Int>()
        monitor.onValue = { value in
            record.see(sender: value >> 32, sequence: value & 0xFFFF_FFFF)
            delivered.add(1, ordering: .releasing)
        }
        let permanent = monitor.subscribe(to: subject)

        let sendersReturned = Atomic<Int>(0)
        let deliveredWhenSendersReturned = Atomic<Int>(-1)
        let churned = Atomic<Int>(0)
        let problems = ProblemLog()
        let finished = runThreads(senders + churners, timeout: 120, file: file, line: line) { index in
            if index < senders {
                for sequence in 0..<perSender { subject.send(index << 32 | sequence) }
                // The last sender to return looks at what the subscriber has received by now.
                if sendersReturned.add(1, ordering: .acquiringAndReleasing).newValue == senders {
                    deliveredWhenSendersReturned.store(delivered.load(ordering: .acquiring), ordering: .relaxed)
                }
                return
            }
            // A churner: subscribe, let a few values through, dispose; again until the senders are done.
            // One round in four disposes at once; the others wait (parked) for a value first, so every such
            // subscription is seen receiving, and the churners take their turn on the CPU behind the senders
            // rather than beside them (a subscribe never waits for the deliverer).
            var round = 0
            while sendersReturned.load(ordering: .acquiring) < senders {
                let churn = GrammarMonitor<Int>()
                let subscription = churn.subscribe(to: subject)
                if round % 4 != 0 {
                    churn.waitForAValue(orUntil: { sendersReturned.load(ordering: .acquiring) == senders })
                }
                spin((round % 4) * 2_000)
                subscription.dispose()
                churn.markDisposed()
                if churn.overlaps > 0 || churn.eventsAfterDispose > 0 || churn.terminalCount > 0 {
                    problems.add(
                        "churner \(index): overlaps \(churn.overlaps), after dispose \(churn.eventsAfterDispose), "
                            + "terminal \(churn.terminalCount)")
                }
                round += 1
                churned.add(1, ordering: .relaxed)
            }
        }
        guard finished else { return }

        // With only senders, the senders themselves drained everything before the last returned; a churning
        // thread that owns the gate may still be delivering a batch and the queue behind it.
        let allowedInFlight = churners == 0 ? 0 : 2 * Subject<Int, Never>.backlogLimit
        XCTAssertGreaterThanOrEqual(
            deliveredWhenSendersReturned.load(ordering: .relaxed), total - allowedInFlight,
            "values delivered when the last sender returned (the rest was left in a backlog)", file: file, line: line)
        XCTAssertEqual(delivered.load(ordering: .acquiring), total, "values delivered in all", file: file, line: line)
        monitor.assertWellFormed("permanent subscriber", file: file, line: line)
        XCTAssertEqual(monitor.nextCount, total, "every value delivered once", file: file, line: line)
        XCTAssertEqual(record.gaps, 0, "values missing between two of a sender's values", file: file, line: line)
        XCTAssertEqual(record.repeatedOrReordered, 0, "values repeated or out of order", file: file, line: line)
        XCTAssertEqual(
            record.last, Array(repeating: perSender - 1, count: senders), "each sender's last value arrived",
            file: file, line: line)
        XCTAssertEqual(problems.entries, [], file: file, line: line)
        if churners > 0 {
            XCTAssertGreaterThan(churned.load(ordering: .relaxed), 0, "the churners ran", file: file, line: line)
        }
        permanent.dispose()
    }

    func testEightThreadsSendingIntoOneSubjectDeliverEveryValueOnceBeforeTheLastSenderReturns() {
        assertEightSendersDeliverEverythingBeforeTheyReturn(churners: 0)
    }

    func testEightThreadsSendingWhileTenThreadsSubscribeAndDisposeLeaveAtMostTwoBacklogsWhenTheLastSenderReturns() {
        assertEightSendersDeliverEverythingBeforeTheyReturn(churners: 10)
    }
}
