import Synchronization
import XCTest

@testable import Observable
@testable import TetherEngine

/// `JoinCatchUp` on its own, without a source: the joiner's run (initial events, the backlog, the end,
/// a disposal, falling behind) and the owner's delivery of a backlog it took over. The test plays the
/// owner by handing events over from inside the joiner's callbacks (under the lock, as a source's owner
/// does); the sources' behaviour is in `JoinCatchUpTests`.
final class JoinCatchUpRunTests: XCTestCase {
    /// The source's side the catch-up needs: its gate (for the gate's lock), and what its callbacks were told.
    private final class Harness {
        let gate = SerialGate<Void>()
        let catchUp = JoinCatchUp<Int, Never>()
        var received: [Event<Int, Never>] = []
        var unlinks = 0
        var ends = 0
        var gives = 0
        /// Called in each callback with the number of events received so far (the owner's moves).
        var duringCallback: (Int) -> Void = { _ in }

        /// The subscriber.
        func send(_ event: Event<Int, Never>) {
            received.append(event)
            duringCallback(received.count)
        }

        /// Hands `events` over, as the source's owner does, under the lock.
        func handOver(_ events: [Event<Int, Never>]) {
            gate.withLock {
                for event in events { catchUp.handOver(event) }
            }
        }

        func run(
            _ initial: [Event<Int, Never>], isDisposed: @escaping () -> Bool = { false },
            giveToOwner: @escaping () -> Bool = { false }
        ) {
            catchUp.run(
                initial: initial, send: send, gate: gate, isDisposed: isDisposed,
                giveToOwner: {
                    self.gives += 1
                    return giveToOwner()
                },
                unlink: { self.unlinks += 1 }, end: { self.ends += 1 })
            // The tests' moves capture the harness: let go of them (a cycle otherwise).
            duringCallback = { _ in }
        }
    }

    func testRunDeliversTheInitialEventsThenWhatWasHandedOverThenUnlinksOnce() {
        let harness = Harness()
        harness.duringCallback = { [unowned harness] count in
            if count == 1 { harness.handOver([.next(10), .next(11)]) }
            if count == 3 { harness.handOver([.next(12)]) }
        }
        harness.run([.next(1), .next(2)])
        XCTAssertEqual(harness.received, [.next(1), .next(2), .next(10), .next(11), .next(12)])
        XCTAssertEqual(harness.unlinks, 1)
        XCTAssertEqual(harness.ends, 0)
        XCTAssertTrue(harness.catchUp.fence.holderHasLeft, "the joiner left")
    }

    func testRunEndsTheSubscriptionAfterATerminalEventInTheBacklogAndDeliversNothingAfterIt() {
        let harness = Harness()
        harness.duringCallback = { [unowned harness] count in
            if count == 1 { harness.handOver([.next(10), .completed, .next(11)]) }
        }
        harness.run([.next(1)])
        XCTAssertEqual(harness.received, [.next(1), .next(10), .completed])
        XCTAssertEqual(harness.unlinks, 1)
        XCTAssertEqual(harness.ends, 1)
    }

    func testRunEndsTheSubscriptionAfterTheBacklogOfASourceThatWentAway() {
        let harness = Harness()
        harness.duringCallback = { [unowned harness] count in
            guard count == 1 else { return }
            harness.handOver([.next(10)])
            harness.gate.withLock { harness.catchUp.handOverEnd() }
        }
        harness.run([.next(1)])
        XCTAssertEqual(harness.received, [.next(1), .next(10)])
        XCTAssertEqual(harness.ends, 1)
        XCTAssertEqual(harness.unlinks, 1)
    }

    func testRunStopsAtADisposalAndAcknowledgesItToTheRendezvous() {
        let harness = Harness()
        var disposed = false
        harness.duringCallback = { [unowned harness] count in
            if count == 1 {
                harness.handOver([.next(10)])
                disposed = true
            }
        }
        harness.run([.next(1), .next(2)], isDisposed: { disposed })
        XCTAssertEqual(harness.received, [.next(1)])
        XCTAssertEqual(harness.unlinks, 1)
        XCTAssertEqual(harness.ends, 0, "a disposed subscription is ended by its disposer")
        XCTAssertTrue(harness.catchUp.fence.disposalAcknowledged, "acknowledged")
    }

    func testAJoinerThatFallsBehindGivesTheRestToTheOwnerInOrderAndLeavesTheCatchUpLinked() {
        let harness = Harness()
        let limit = JoinCatchUp<Int, Never>.backlogLimit
        harness.duringCallback = { [unowned harness] count in
            if count == 1 { harness.handOver((0..<limit).map { .next(100 + $0) }) }
        }
        harness.run([.next(1), .next(2)], giveToOwner: { true })
        XCTAssertEqual(harness.received, [.next(1)])
        XCTAssertEqual(harness.gives, 1)
        XCTAssertEqual(harness.unlinks, 0, "the owner's flush unlinks it")
        XCTAssertEqual(harness.ends, 0)
        XCTAssertTrue(harness.catchUp.fence.holderHasLeft, "the joiner left")
        let taken = harness.gate.withLock { harness.catchUp.takeOver() }
        XCTAssertEqual(taken.backlog, [.next(2)] + (0..<limit).map { .next(100 + $0) }, "the rest, in order")
        XCTAssertFalse(taken.ends)
    }

    func testAJoinerThatFallsBehindWithNobodyToGiveTheRestToDeliversItAndAsksOnlyOncePerBatch() {
        let harness = Harness()
        let limit = JoinCatchUp<Int, Never>.backlogLimit
        harness.duringCallback = { [unowned harness] count in
            if count == 1 { harness.handOver((0..<limit).map { .next(100 + $0) }) }
        }
        harness.run([.next(1), .next(2)], giveToOwner: { false })
        XCTAssertEqual(harness.received, [.next(1), .next(2)] + (0..<limit).map { .next(100 + $0) })
        XCTAssertEqual(harness.gives, 1)
        XCTAssertEqual(harness.unlinks, 1)
    }

    func testAJoinerFindingABacklogsWorthHandedOverAfterItsInitialEventsOffersItToTheOwner() {
        let harness = Harness()
        let limit = JoinCatchUp<Int, Never>.backlogLimit
        harness.duringCallback = { [unowned harness] count in
            if count == 1 { harness.handOver((0..<limit).map { .next(100 + $0) }) }
        }
        harness.run([.next(1)], giveToOwner: { true })
        XCTAssertEqual(harness.received, [.next(1)])
        XCTAssertEqual(harness.gives, 1)
        XCTAssertEqual(harness.unlinks, 0)
    }

    func testTheOwnersDeliveryOfATakenOverBacklogStopsAtTheTerminalEventAndReportsTheEnd() {
        var calls: [Event<Int, Never>] = []
        XCTAssertTrue(
            JoinCatchUp<Int, Never>.deliver(takenOver: ([.next(1), .completed, .next(2)], false)) { calls.append($0) })
        XCTAssertEqual(calls, [.next(1), .completed])
        calls = []
        XCTAssertFalse(JoinCatchUp<Int, Never>.deliver(takenOver: ([.next(1)], false)) { calls.append($0) })
        XCTAssertTrue(
            JoinCatchUp<Int, Never>.deliver(takenOver: ([], true)) { calls.append($0) }, "the source went away")
        XCTAssertEqual(calls, [.next(1)])
    }
}
