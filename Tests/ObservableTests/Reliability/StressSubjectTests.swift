import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Stress: many threads sending into one subject while subscribers come and go.
///
/// Run with `swift test --filter Stress`; `TETHER_STRESS_SCALE` scales the counts (see
/// ``StressScale``).
final class StressSubjectTests: ResourceCheckedTestCase {
    /// A value sent by sender `thread` as its `sequence`-th send.
    struct Stamp: Sendable {
        let thread: Int
        let sequence: Int
    }

    /// What one churning subscription saw, per sender: first and last sequence numbers and gaps.
    final class ChurnRecord: @unchecked Sendable {
        // Touched only inside the subscription's serialized deliveries; read after it ended.
        var last: [Int]
        var gaps = 0
        var reordered = 0
        init(senders: Int) { last = Array(repeating: -1, count: senders) }

        func see(_ stamp: Stamp) {
            let previous = last[stamp.thread]
            if previous >= 0 {
                if stamp.sequence <= previous {
                    reordered += 1
                } else if stamp.sequence != previous + 1 {
                    gaps += 1
                }
            }
            last[stamp.thread] = stamp.sequence
        }
    }

    func testEightSendersIntoOneSubjectWhileTenSubscribersComeAndGo() {
        let senders = 8
        let sendsPerSender = StressScale.scaled(100_000)
        let churners = 10
        let subject = Subject<Stamp, Never>()

        // A permanent subscriber: must see every value exactly once, per-sender order kept, then one completion.
        let permanent = GrammarMonitor<Stamp>()
        let permanentRecord = ChurnRecord(senders: senders)
        permanent.onValue = { permanentRecord.see($0) }
        let permanentSubscription = permanent.subscribe(to: subject)

        let sendersDone = Atomic<Int>(0)
        let churnSubscriptions = Atomic<Int>(0)
        let problems = ProblemLog()

        let churnersReady = ChurnersReady(churners: churners)
        runThreads(senders + churners) { index in
            if index < senders {
                churnersReady.wait()
                for sequence in 0..<sendsPerSender {
                    subject.send(Stamp(thread: index, sequence: sequence))
                }
                sendersDone.add(1, ordering: .acquiringAndReleasing)
                return
            }
            // A churner: subscribe, let some values through, dispose; again until the senders are done.
            var round = 0
            repeat {
                let monitor = GrammarMonitor<Stamp>()
                let record = ChurnRecord(senders: senders)
                monitor.onValue = { record.see($0) }
                let subscription = monitor.subscribe(to: subject)
                if round == 0 { churnersReady.arrive() }
                // Vary how long a subscription lives: one in four is disposed at once; the others first wait
                // (parked) for a value to come through, then stay a little longer.
                if round % 4 != 0 {
                    monitor.waitForAValue(orUntil: { sendersDone.load(ordering: .acquiring) == senders })
                }
                spin((round % 4) * 2_000)
                subscription.dispose()
                monitor.markDisposed()
                round += 1
                churnSubscriptions.add(1, ordering: .relaxed)
                if monitor.overlaps > 0 || monitor.eventsAfterTerminal > 0 || monitor.eventsAfterDispose > 0
                    || record.gaps > 0 || record.reordered > 0
                {
                    problems.add(
                        "churn subscription: overlaps \(monitor.overlaps), after terminal \(monitor.eventsAfterTerminal), "
                            + "after dispose \(monitor.eventsAfterDispose), gaps \(record.gaps), reordered \(record.reordered)"
                    )
                }
            } while sendersDone.load(ordering: .acquiring) < senders
        }
        subject.sendCompleted()
        subject.send(Stamp(thread: 0, sequence: -1))  // after the terminal event: dropped

        XCTAssertEqual(problems.entries, [])
        permanent.assertWellFormed("permanent subscriber")
        XCTAssertEqual(permanent.nextCount, senders * sendsPerSender, "every value delivered exactly once")
        XCTAssertEqual(permanent.terminalCount, 1)
        XCTAssertEqual(permanentRecord.gaps, 0)
        XCTAssertEqual(permanentRecord.reordered, 0)
        XCTAssertEqual(permanentRecord.last, Array(repeating: sendsPerSender - 1, count: senders))
        XCTAssertTrue(permanentSubscription.isDisposed, "completion ends the subscription")
        XCTAssertGreaterThan(churnSubscriptions.load(ordering: .relaxed), churners)
    }

    func testSubscriptionsDisposedFromOtherThreadsWhileEightThreadsSendSeeNothingAfterDisposeReturns() {
        // Bounded senders: with endless senders, dispose() from another thread waits for the whole backlog
        // (see ReliabilityRegressionTests.testDisposeFromAnotherThreadReturnsPromptlyWhileThreadsFloodTheSubject).
        let senders = 8
        let sendsPerSender = StressScale.scaled(50_000)
        let subject = Subject<Int, Never>()
        let sendersDone = Atomic<Int>(0)
        let problems = ProblemLog()
        let disposals = Atomic<Int>(0)
        let disposersReady = ChurnersReady(churners: 2)
        runThreads(senders + 2) { index in
            if index < senders {
                disposersReady.wait()
                for value in 0..<sendsPerSender { subject.send(value) }
                sendersDone.add(1, ordering: .acquiringAndReleasing)
                return
            }
            // Two disposers: subscribe on this thread, dispose from another one, check the aftermath.
            var first = true
            repeat {
                let monitor = GrammarMonitor<Int>()
                let subscription = UncheckedBox(monitor.subscribe(to: subject))
                if first {
                    first = false
                    disposersReady.arrive()
                }
                let done = DispatchSemaphore(value: 0)
                let disposer = Thread {
                    subscription.value.dispose()
                    monitor.markDisposed()
                    done.signal()
                }
                disposer.start()
                done.wait()
                disposals.add(1, ordering: .relaxed)
                // Let the senders run on: a delivery that started after dispose() returned would be counted.
                subject.send(-1)
                if monitor.overlaps > 0 || monitor.eventsAfterDispose > 0 {
                    problems.add("overlaps \(monitor.overlaps), after dispose \(monitor.eventsAfterDispose)")
                }
            } while sendersDone.load(ordering: .acquiring) < senders
        }
        XCTAssertEqual(problems.entries, [])
        XCTAssertGreaterThanOrEqual(disposals.load(ordering: .relaxed), 2, "each disposer disposed at least once")
    }

    func testReplaySubjectLosesAndDuplicatesNothingForSubscribersJoiningWhileEightThreadsSend() {
        let senders = 8
        let sendsPerSender = StressScale.scaled(10_000)
        let subject = ReplaySubject<Stamp, Never>()
        let problems = ProblemLog()
        let joined = Atomic<Int>(0)
        runThreads(senders + 2) { index in
            if index < senders {
                for sequence in 0..<sendsPerSender { subject.send(Stamp(thread: index, sequence: sequence)) }
                return
            }
            // Joiners: every subscription replays from the start, so it must see every sender's values
            // from 0 without a gap, up to where it is disposed.
            for _ in 0..<StressScale.scaled(50) {
                let monitor = GrammarMonitor<Stamp>()
                let record = ChurnRecord(senders: senders)
                var firsts = Array(repeating: -1, count: senders)
                monitor.onValue = { stamp in
                    if firsts[stamp.thread] < 0 { firsts[stamp.thread] = stamp.sequence }
                    record.see(stamp)
                }
                let subscription = monitor.subscribe(to: subject)
                subscription.dispose()
                monitor.markDisposed()
                joined.add(1, ordering: .relaxed)
                let badStart = firsts.contains { $0 > 0 }
                if badStart || record.gaps > 0 || record.reordered > 0 || monitor.overlaps > 0
                    || monitor.eventsAfterDispose > 0
                {
                    problems.add("replay: firsts \(firsts), gaps \(record.gaps), reordered \(record.reordered)")
                }
            }
        }
        subject.sendCompleted()
        // A late subscriber gets everything, then the completion.
        let late = GrammarMonitor<Stamp>()
        let lateRecord = ChurnRecord(senders: senders)
        late.onValue = { lateRecord.see($0) }
        _ = late.subscribe(to: subject)
        XCTAssertEqual(problems.entries, [])
        XCTAssertEqual(late.nextCount, senders * sendsPerSender)
        XCTAssertEqual(late.terminalCount, 1)
        XCTAssertEqual(lateRecord.gaps + lateRecord.reordered, 0)
    }
}
