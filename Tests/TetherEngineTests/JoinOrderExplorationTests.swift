import TetherEngine
import XCTest

/// ``JoinQueue`` and ``JoinedSubscribers`` explored exhaustively, without threads, as the subjects and
/// `MutableProperty` drive them: subscribers join (under the lock) or, once the queue is closed, through the
/// gate in order with the events; sends are stamped with the queue's count (under the lock) and queued for
/// the owner; the owner performs one queued operation per step (taking the queue in first when a send is
/// stamped later than what it took in); a subscriber is disposed at any point (out of the queue if the owner
/// has not taken it in, otherwise by a removal queued for the owner, and skipped from then on); the source
/// ends at any point (the owner takes the queue in and closes it). In every state nobody is both queued and
/// taken in and nobody receives a value sent before it joined; in every final state each subscriber still
/// subscribed received exactly the values sent after it joined, in order, then the end once.
final class JoinOrderExplorationTests: XCTestCase {
    func testEverySubscriberReceivesExactlyTheValuesSentAfterItJoinedInEveryInterleaving() {
        let explored = JoinModel.explore(joiners: 3, sends: 2, disposals: true, end: true)
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.states, 50_000)
        XCTAssertTrue(explored.sawJoinAfterASendWasQueued, "some interleaving joins between a send and its delivery")
        XCTAssertTrue(explored.sawJoinThroughTheGate, "some interleaving joins after the end closed the queue")
        XCTAssertTrue(explored.sawSpill, "some interleaving spills the slot's joiner into the array")
        XCTAssertTrue(explored.sawSlotTakenAgain, "some interleaving empties the queue, then joins into the slot")
    }

    func testThreeJoinersAndThreeSendsWithoutDisposalOrEnd() {
        let explored = JoinModel.explore(joiners: 3, sends: 3, disposals: false, end: false)
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.states, 1_000)
    }

    /// The example of `JoinOrder.swift`'s notes.
    func testASubscriberThatJoinedAfterASendDoesNotReceiveIt() {
        let a = JoinModel.Subscriber(id: 0)
        let b = JoinModel.Subscriber(id: 1)
        var queue = JoinQueue<JoinModel.Subscriber>()
        var joined = JoinedSubscribers<JoinModel.Subscriber>()
        XCTAssertEqual(queue.join(a), 1)
        let seen = queue.count
        XCTAssertEqual(queue.join(b), 2)
        XCTAssertTrue(joined.needsTakingIn(seen))
        joined.takeIn(&queue)
        XCTAssertFalse(joined.allJoined(before: seen))
        XCTAssertTrue(joined.receives(at: 0, stamped: seen))
        XCTAssertFalse(joined.receives(at: 1, stamped: seen))
        XCTAssertTrue(joined.allJoined(before: queue.count))
    }

    func testAClosedQueueRefusesJoinsAndARemovedJoinerIsNeverTakenIn() {
        let a = JoinModel.Subscriber(id: 0)
        let b = JoinModel.Subscriber(id: 1)
        var queue = JoinQueue<JoinModel.Subscriber>()
        var joined = JoinedSubscribers<JoinModel.Subscriber>()
        _ = queue.join(a)
        _ = queue.join(b)
        XCTAssertTrue(queue.remove(a))
        XCTAssertFalse(queue.remove(a))
        joined.takeIn(&queue)
        XCTAssertEqual(joined.entries.map(\.id), [1])
        queue.close()
        XCTAssertNil(queue.join(a))
        joined.appendInOrder(a)
        XCTAssertTrue(joined.receives(at: 1, stamped: 0), "a subscriber that joined through the gate gets what follows")
        XCTAssertEqual(joined.removeAll().map(\.id), [1, 0])
        XCTAssertTrue(joined.entries.isEmpty)
    }

    /// `remove(_:)` takes the newest joiner off the end (without `remove(at:)`) and an older one from the
    /// middle: either way every joiner left keeps its own join index, and the count goes on.
    func testRemovingTheNewestOrAnOlderJoinerKeepsEachOtherJoinersIndex() {
        let subscribers = (0..<4).map { JoinModel.Subscriber(id: $0) }
        var queue = JoinQueue<JoinModel.Subscriber>()
        for subscriber in subscribers { _ = queue.join(subscriber) }
        XCTAssertTrue(queue.remove(subscribers[3]))
        XCTAssertEqual(queue.pending.map(\.id), [0, 1, 2])
        XCTAssertEqual(Array(queue.pendingJoins), [1, 2, 3])
        XCTAssertTrue(queue.remove(subscribers[1]))
        XCTAssertEqual(queue.pending.map(\.id), [0, 2])
        XCTAssertEqual(Array(queue.pendingJoins), [1, 3])
        XCTAssertFalse(queue.remove(subscribers[3]))
        XCTAssertEqual(queue.join(subscribers[3]), 5)
        XCTAssertTrue(queue.remove(subscribers[3]))
        XCTAssertTrue(queue.remove(subscribers[2]))
        XCTAssertEqual(queue.pending.map(\.id), [0])
        XCTAssertEqual(Array(queue.pendingJoins), [1])
        var joined = JoinedSubscribers<JoinModel.Subscriber>()
        joined.takeIn(&queue)
        XCTAssertEqual(joined.entries.map(\.id), [0])
        XCTAssertTrue(joined.receives(at: 0, stamped: 1))
        XCTAssertTrue(joined.allJoined(before: 1))
    }
}

extension JoinOrderExplorationTests {
    /// Joiners that come one after another keep one word each in the queue: their join indices are
    /// `firstJoin`, `firstJoin + 1`, … and are not stored. They are written out once a newer joiner left and
    /// another joined after it, or an older one left from the middle, and the queue goes back to one word
    /// per joiner when it empties.
    func testConsecutiveJoinersStoreNoJoinIndicesUntilAGapAppears() {
        let subscribers = (0..<5).map { JoinModel.Subscriber(id: $0) }
        var queue = JoinQueue<JoinModel.Subscriber>()
        for subscriber in subscribers.prefix(3) { _ = queue.join(subscriber) }
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        XCTAssertEqual(queue.firstJoin, 1)
        XCTAssertEqual(Array(queue.pendingJoins), [1, 2, 3])
        // The oldest leaves: still consecutive, from the next one.
        XCTAssertTrue(queue.remove(subscribers[0]))
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        XCTAssertEqual(Array(queue.pendingJoins), [2, 3])
        // The newest leaves: still consecutive; the next joiner makes a gap.
        XCTAssertTrue(queue.remove(subscribers[2]))
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        XCTAssertEqual(queue.join(subscribers[3]), 4)
        XCTAssertEqual(Array(queue.gappedJoins), [2, 4])
        XCTAssertEqual(queue.join(subscribers[4]), 5)
        XCTAssertEqual(Array(queue.pendingJoins), [2, 4, 5])
        var joined = JoinedSubscribers<JoinModel.Subscriber>()
        joined.takeIn(&queue)
        assertJoined(joined, ids: [1, 3, 4], joins: [2, 4, 5], newest: 5)
        XCTAssertTrue(queue.pending.isEmpty && queue.gappedJoins.isEmpty)
        // Emptied: consecutive again, from the next join.
        XCTAssertEqual(queue.join(subscribers[0]), 6)
        XCTAssertEqual(queue.join(subscribers[2]), 7)
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        // One from the middle leaves: written out.
        XCTAssertEqual(queue.join(subscribers[1]), 8)
        XCTAssertTrue(queue.remove(subscribers[2]))
        XCTAssertEqual(Array(queue.gappedJoins), [6, 8])
        // Emptied by removals: consecutive again.
        XCTAssertTrue(queue.remove(subscribers[1]))
        XCTAssertTrue(queue.remove(subscribers[0]))
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        XCTAssertEqual(queue.join(subscribers[0]), 9)
        joined.takeIn(&queue)
        assertJoined(joined, ids: [1, 3, 4, 0], joins: [2, 4, 5, 9], newest: 9)
    }

    /// The exploration with a fourth joiner and disposals: removals of the newest and from the middle, and
    /// joins after them, in every order, with the indices written out or not.
    func testFourJoinersWithDisposalsAndOneSend() {
        let explored = JoinModel.explore(joiners: 4, sends: 1, disposals: true, end: false)
        XCTAssertEqual(explored.violations, [])
        XCTAssertGreaterThan(explored.states, 10_000)
    }
}

/// The model: what each step of the sources does with the join order, and what each subscriber received.
enum JoinModel {
    final class Subscriber {
        let id: Int
        init(id: Int) { self.id = id }
    }

    enum Operation: Hashable {
        /// A send, by its number (its order among the sends), and its stamp.
        case send(Int, seen: UInt)
        case remove(Int)
        /// A subscriber that joined after the queue closed: in order with the events.
        case add(Int)
        case end
    }

    enum Received: Hashable {
        case value(Int)
        case end
    }

    /// Where a subscriber is in its life, as the test driver sees it.
    enum Phase: Hashable {
        case notJoined
        /// Joined through the queue with this index (or through the gate: `nil`), at the moment `sent`
        /// values had been sent.
        case joined(index: UInt?, sentBefore: Int)
        case disposed
    }

    struct State {
        var queue = JoinQueue<Subscriber>()
        var joined = JoinedSubscribers<Subscriber>()
        var operations: [Operation] = []
        var phases: [Phase]
        var received: [[Received]]
        var sent = 0
        var ended = false
        var performedEnd = false

        var key: String {
            [
                queue.slot.map { "slot \($0.id)" } ?? "",
                queue.pending.map { "\($0.id)" }.joined(separator: ","),
                queue.pendingJoins.map { "\($0)" }.joined(separator: ","), "\(queue.count)", "\(queue.isClosed)",
                joined.entries.map { "\($0.id)" }.joined(separator: ","),
                joined.joins.map { "\($0)" }.joined(separator: ","), "\(joined.takenCount)", "\(joined.newest)",
                "\(operations)", "\(phases)", "\(received)", "\(sent)", "\(ended)", "\(performedEnd)",
            ].joined(separator: "|")
        }
    }

    struct Exploration {
        var states = 0
        var violations: [String] = []
        var sawJoinAfterASendWasQueued = false
        var sawJoinThroughTheGate = false
        var sawSpill = false
        var sawSlotTakenAgain = false
    }

    static func explore(joiners: Int, sends: Int, disposals: Bool, end: Bool) -> Exploration {
        let subscribers = (0..<joiners).map { Subscriber(id: $0) }
        var result = Exploration()
        let start = State(
            phases: Array(repeating: .notJoined, count: joiners), received: Array(repeating: [], count: joiners))
        let walk = StateSpace.explore(from: start, key: \.key) { state in
            check(state)
        } finalViolation: { state in
            checkFinal(state, sends: sends)
        } successors: { state in
            var successors: [State] = []
            for id in 0..<joiners {
                switch state.phases[id] {
                case .notJoined:
                    // subscribe: under the lock, into the queue; once it is closed, through the gate.
                    var next = state
                    if let index = next.queue.join(subscribers[id]) {
                        next.phases[id] = .joined(index: index, sentBefore: state.sent)
                        if next.queue.spilled.count == 2 && state.queue.slot != nil { result.sawSpill = true }
                        if next.queue.slot != nil && index > 1 { result.sawSlotTakenAgain = true }
                        if state.operations.contains(where: { if case .send = $0 { true } else { false } }) {
                            result.sawJoinAfterASendWasQueued = true
                        }
                    } else {
                        next.phases[id] = .joined(index: nil, sentBefore: state.sent)
                        next.operations.append(.add(id))
                        result.sawJoinThroughTheGate = true
                    }
                    successors.append(next)
                case .joined where disposals:
                    // dispose: out of the queue if not taken in; otherwise a removal for the owner (who skips
                    // the disposed subscriber from now on).
                    var next = state
                    next.phases[id] = .disposed
                    if !next.queue.remove(subscribers[id]) { next.operations.append(.remove(id)) }
                    successors.append(next)
                default:
                    break
                }
            }
            if state.sent < sends && !state.ended {
                // send: stamped under the lock, queued for the owner.
                var next = state
                next.operations.append(.send(state.sent, seen: state.queue.count))
                next.sent += 1
                successors.append(next)
            }
            if end && !state.ended {
                var next = state
                next.ended = true
                next.operations.append(.end)
                successors.append(next)
            }
            if !state.operations.isEmpty {
                var next = state
                perform(next.operations.removeFirst(), on: &next)
                successors.append(next)
            }
            return successors
        }
        (result.states, result.violations) = (walk.states, walk.violations)
        return result
    }

    /// One operation, as the owner performs it (`SubjectCore.perform`, `MutablePropertyStorage.perform`).
    static func perform(_ operation: Operation, on state: inout State) {
        func call(_ subscriber: Subscriber, _ received: Received) {
            if state.phases[subscriber.id] != .disposed { state.received[subscriber.id].append(received) }
        }
        switch operation {
        case .send(let number, let seen):
            if state.performedEnd { return }
            if state.joined.needsTakingIn(seen) { state.joined.takeIn(&state.queue) }
            let joined = state.joined
            for index in joined.entries.indices
            where joined.allJoined(before: seen) || joined.receives(at: index, stamped: seen) {
                call(joined.entries[index], .value(number))
            }
        case .remove(let id):
            if let subscriber = state.joined.entries.first(where: { $0.id == id }) {
                state.joined.remove(subscriber)
            }
        case .add(let id):
            // After the end: the subscriber gets the end at once.
            call(Subscriber(id: id), .end)
        case .end:
            state.joined.takeIn(&state.queue)
            state.queue.close()
            state.performedEnd = true
            for subscriber in state.joined.removeAll() { call(subscriber, .end) }
        }
    }

    /// The invariants of every state.
    static func check(_ state: State) -> String? {
        let queued = Set(state.queue.pending.map(\.id))
        let taken = Set(state.joined.entries.map(\.id))
        if !queued.isDisjoint(with: taken) {
            return "queued and taken in: \(queued.intersection(taken)) in \(state.key)"
        }
        if state.joined.takenCount > state.queue.count { return "took in more than joined: \(state.key)" }
        // The slot holds the only waiting joiner: never beside the array's.
        if state.queue.slot != nil && !state.queue.spilled.isEmpty { return "slot and array both hold: \(state.key)" }
        if state.queue.spilled.isEmpty && !state.queue.gappedJoins.isEmpty {
            return "join indices written out for an empty array: \(state.key)"
        }
        // Each subscriber beside its own join index, in join order (0: joined through the gate, after all).
        if state.queue.pending.count != state.queue.pendingJoins.count
            || state.joined.entries.count != state.joined.joins.count
        {
            return "subscribers and join indices out of step: \(state.key)"
        }
        let queueJoins = Array(state.queue.pendingJoins)
        let takenJoins = state.joined.joins.filter { $0 != 0 }
        if queueJoins != queueJoins.sorted() || takenJoins != takenJoins.sorted() {
            return "join indices out of order: \(state.key)"
        }
        for (id, phase) in state.phases.enumerated() {
            guard case .joined(let index?, _) = phase else { continue }
            let position = state.joined.entries.firstIndex { $0.id == id }
            if let position, state.joined.joins[position] != index {
                return "subscriber \(id) taken in with join \(state.joined.joins[position]), joined as \(index)"
            }
        }
        for (id, phase) in state.phases.enumerated() {
            guard case .joined(_, let sentBefore) = phase else { continue }
            for case .value(let number) in state.received[id] where number < sentBefore {
                return "subscriber \(id) received value \(number), sent before it joined: \(state.key)"
            }
            let values = state.received[id].compactMap { if case .value(let n) = $0 { n } else { nil } }
            if values != values.sorted() || Set(values).count != values.count {
                return "subscriber \(id) received \(values): out of order or twice"
            }
            if state.received[id].filter({ $0 == .end }).count > 1 { return "subscriber \(id) ended twice" }
        }
        return nil
    }

    /// What every final state must show: each subscriber still subscribed received exactly the values sent
    /// after it joined, in order, then the end (if the source ended) once.
    static func checkFinal(_ state: State, sends: Int) -> String? {
        for (id, phase) in state.phases.enumerated() {
            guard case .joined(_, let sentBefore) = phase else { continue }
            var expected = (sentBefore..<state.sent).map { Received.value($0) }
            if state.ended { expected.append(.end) }
            if state.received[id] != expected {
                return "subscriber \(id) received \(state.received[id]), expected \(expected): \(state.key)"
            }
        }
        return nil
    }
}

extension JoinOrderExplorationTests {
    /// One waiting joiner lives in the queue's slot, without an array; a second spills both into the array
    /// (the slot's first, at its own index); once the array empties, the next joiner takes the slot again.
    func testASingleJoinerWaitsInTheSlotAndASecondSpillsBothIntoTheArray() {
        let subscribers = (0..<4).map { JoinModel.Subscriber(id: $0) }
        var queue = JoinQueue<JoinModel.Subscriber>()
        XCTAssertEqual(queue.join(subscribers[0]), 1)
        XCTAssertTrue(queue.slot === subscribers[0])
        XCTAssertTrue(queue.spilled.isEmpty)
        XCTAssertEqual(Array(queue.pendingJoins), [1])
        // The slot's joiner leaves: the queue is empty, and the next joiner takes the slot.
        XCTAssertFalse(queue.remove(subscribers[1]))
        XCTAssertTrue(queue.remove(subscribers[0]))
        XCTAssertNil(queue.slot)
        XCTAssertFalse(queue.remove(subscribers[0]))
        XCTAssertEqual(queue.join(subscribers[1]), 2)
        XCTAssertTrue(queue.slot === subscribers[1])
        XCTAssertEqual(Array(queue.pendingJoins), [2])
        // A second joiner: both in the array, consecutive from the slot's join.
        XCTAssertEqual(queue.join(subscribers[2]), 3)
        XCTAssertNil(queue.slot)
        XCTAssertEqual(queue.spilled.map(\.id), [1, 2])
        XCTAssertTrue(queue.gappedJoins.isEmpty)
        XCTAssertEqual(Array(queue.pendingJoins), [2, 3])
        // The array keeps the last one, and takes later joiners while it holds any.
        XCTAssertTrue(queue.remove(subscribers[1]))
        XCTAssertEqual(queue.spilled.map(\.id), [2])
        XCTAssertEqual(queue.join(subscribers[3]), 4)
        XCTAssertNil(queue.slot)
        XCTAssertEqual(Array(queue.pendingJoins), [3, 4])
        XCTAssertTrue(queue.remove(subscribers[3]))
        XCTAssertTrue(queue.remove(subscribers[2]))
        XCTAssertTrue(queue.pending.isEmpty)
        // Emptied: back to the slot.
        XCTAssertEqual(queue.join(subscribers[0]), 5)
        XCTAssertTrue(queue.slot === subscribers[0])
        XCTAssertTrue(queue.spilled.isEmpty && queue.gappedJoins.isEmpty)
    }

    /// The owner takes in the slot's joiner alone, or the array (with its indices written out or not);
    /// either way the queue empties and the next joiner takes the slot.
    func testTakingInFromTheSlotAndFromTheArray() {
        let subscribers = (0..<5).map { JoinModel.Subscriber(id: $0) }
        var queue = JoinQueue<JoinModel.Subscriber>()
        var joined = JoinedSubscribers<JoinModel.Subscriber>()
        _ = queue.join(subscribers[0])
        joined.takeIn(&queue)
        XCTAssertNil(queue.slot)
        assertJoined(joined, ids: [0], joins: [1], newest: 1)
        XCTAssertEqual(joined.takenCount, 1)
        XCTAssertFalse(queue.remove(subscribers[0]), "taken in: no longer in the queue")
        // Three in the array, the middle one leaves: indices written out.
        _ = queue.join(subscribers[1])
        _ = queue.join(subscribers[2])
        _ = queue.join(subscribers[3])
        XCTAssertTrue(queue.remove(subscribers[2]))
        XCTAssertEqual(queue.spilled.map(\.id), [1, 3])
        XCTAssertEqual(Array(queue.gappedJoins), [2, 4])
        joined.takeIn(&queue)
        assertJoined(joined, ids: [0, 1, 3], joins: [1, 2, 4], newest: 4)
        XCTAssertTrue(queue.pending.isEmpty && queue.gappedJoins.isEmpty)
        // Back to the slot, then taken in from it after the array was used.
        XCTAssertEqual(queue.join(subscribers[4]), 5)
        XCTAssertTrue(queue.slot === subscribers[4])
        joined.takeIn(&queue)
        assertJoined(joined, ids: [0, 1, 3, 4], joins: [1, 2, 4, 5], newest: 5)
        XCTAssertEqual(joined.takenCount, 5)
        // Nothing waiting: taking in only moves the count on.
        joined.takeIn(&queue)
        XCTAssertEqual(joined.entries.count, 4)
    }

    /// Asserts what the owner took in: the subscribers, their join indices, and the newest join.
    func assertJoined(
        _ joined: JoinedSubscribers<JoinModel.Subscriber>, ids: [Int], joins: [UInt], newest: UInt,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(joined.entries.map(\.id), ids, file: file, line: line)
        XCTAssertEqual(Array(joined.joins), joins, file: file, line: line)
        XCTAssertEqual(joined.newest, newest, file: file, line: line)
    }
}
