import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class FilteringTests: ResourceCheckedTestCase {
    // MARK: ignore / ignoreValues

    func testIgnoreDropsEqualValues() {
        let log = EventLog<String, Never>()
        Signal<String, Never>(values: ["a", "", "b", ""]).ignore("").record(into: log)
        XCTAssertEqual(log.events, [.next("a"), .next("b"), .completed])
    }

    func testIgnoreForwardsErrorAndDisposes() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.ignore(0).record(into: log)
        subject.send(0)
        subject.send(1)
        subject.sendError(TestError(2))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(2))])
        assertDisposesSource { $0.ignore(0) }
    }

    func testIgnoreValuesForwardsOnlyTheTerminalEvent() {
        let completed = EventLog<Int, Never>()
        Signal<Int, Never>(values: 1...3).ignoreValues().record(into: completed)
        XCTAssertEqual(completed.events, [.completed])

        let subject = Subject<Int, TestError>()
        let failed = EventLog<Int, TestError>()
        subject.ignoreValues().record(into: failed)
        subject.send(1)
        subject.sendError(TestError(4))
        XCTAssertEqual(failed.events, [.error(TestError(4))])
        assertDisposesSource { $0.ignoreValues() }
    }

    // MARK: distinctUntilChanged

    func testDistinctUntilChangedDropsRepeatsButNotLaterEqualValues() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 1, 2, 2, 1]).distinctUntilChanged().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(1), .completed])
    }

    func testDistinctUntilChangedByUsesTheGivenEquivalence() {
        let log = EventLog<String, Never>()
        Signal<String, Never>(values: ["a", "A", "b", "B", "a"])
            .distinctUntilChanged(by: { $0.lowercased() == $1.lowercased() })
            .record(into: log)
        XCTAssertEqual(log.values, ["a", "b", "a"])
    }

    func testDistinctUntilChangedStartsAfreshForEachSubscription() {
        let subject = Subject<Int, Never>()
        let distinct = subject.distinctUntilChanged()
        let first = EventLog<Int, Never>()
        distinct.record(into: first)
        subject.send(1)
        let second = EventLog<Int, Never>()
        distinct.record(into: second)
        subject.send(1)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [1])
    }

    func testDistinctUntilChangedForwardsErrorDisposesAndReleases() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.distinctUntilChanged().record(into: log)
        subject.sendError(TestError(1))
        XCTAssertEqual(log.events, [.error(TestError(1))])
        assertDisposesSource { $0.distinctUntilChanged() }
        assertReleasesCapture(ending: .complete) { tracked, s in
            s.distinctUntilChanged(by: { $0 + tracked.id == $1 })
        }
    }

    // MARK: skip

    func testSkipDropsTheFirstValues() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: 1...5).skip(2).record(into: log)
        XCTAssertEqual(log.events, [.next(3), .next(4), .next(5), .completed])
    }

    func testSkipZeroOrNegativeSkipsNothing() {
        let zero = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).skip(0).record(into: zero)
        XCTAssertEqual(zero.values, [1, 2])
        let negative = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).skip(-3).record(into: negative)
        XCTAssertEqual(negative.values, [1, 2])
    }

    func testSkipMoreThanAvailableOnlyCompletesAndErrorsPass() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).skip(5).record(into: log)
        XCTAssertEqual(log.events, [.completed])

        let subject = Subject<Int, TestError>()
        let failed = EventLog<Int, TestError>()
        subject.skip(5).record(into: failed)
        subject.sendError(TestError(2))
        XCTAssertEqual(failed.events, [.error(TestError(2))])
        assertDisposesSource { $0.skip(1) }
    }

    // MARK: take

    func testTakeSendsTheFirstValuesThenCompletesAndDisposesSource() {
        let source = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.signal.take(2).record(into: log)
        source.observer?.send(1)
        XCTAssertEqual(source.disposals.value, 0)
        source.observer?.send(2)
        source.observer?.send(3)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testTakeZeroCompletesAtOnceWithoutSubscribing() {
        let source = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.signal.take(0).record(into: log)
        source.signal.take(-1).record(into: log)
        XCTAssertEqual(log.events, [.completed, .completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeOfASynchronousInfiniteSourceTerminates() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: 1...).take(3).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testTakeForwardsAnEarlyErrorOrCompletion() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.take(3).record(into: log)
        subject.send(1)
        subject.sendError(TestError(5))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(5))])

        let short = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1]).take(3).record(into: short)
        XCTAssertEqual(short.events, [.next(1), .completed])
    }

    func testTakeSendsNoCompletionAfterDisposalFromTheLastValue() {
        let subject = Subject<Int, Never>()
        var received: [String] = []
        var subscription: (any Disposable)?
        subscription = subject.take(1).subscribe(
            next: {
                received.append("next \($0)")
                subscription?.dispose()
            },
            completed: { received.append("completed") })
        subject.send(7)
        XCTAssertEqual(received, ["next 7"])
    }

    func testTakeDisposalDisposesSourceAndReleases() {
        assertDisposesSource { $0.take(5) }
        assertReleasesCapture(ending: .dispose) { tracked, s in s.take(5).map { $0 + tracked.id } }
    }

    func testTakeCountsPerSubscription() {
        let subject = Subject<Int, Never>()
        let taken = subject.take(1)
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        taken.record(into: first)
        subject.send(1)
        taken.record(into: second)
        subject.send(2)
        XCTAssertEqual(first.events, [.next(1), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed])
    }

    // MARK: takeLast

    func testTakeLastSendsTheLastValuesOnCompletion() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.takeLast(2).record(into: log)
        for value in 1...5 { subject.send(value) }
        XCTAssertEqual(log.events, [])
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(4), .next(5), .completed])
    }

    func testTakeLastWithFewerValuesThanCountSendsThemAll() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).takeLast(5).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        let empty = EventLog<Int, Never>()
        Signal<Int, Never>.empty.takeLast(2).record(into: empty)
        XCTAssertEqual(empty.events, [.completed])
    }

    func testTakeLastZeroSendsOnlyCompletion() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).takeLast(0).record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testTakeLastFailureSendsOnlyTheError() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.takeLast(2).record(into: log)
        subject.send(1)
        subject.sendError(TestError(3))
        XCTAssertEqual(log.events, [.error(TestError(3))])
    }

    func testTakeLastStopsWhenDisposedWhileSending() {
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        var completed = false
        var subscription: (any Disposable)?
        subscription = subject.takeLast(3).subscribe(
            next: {
                received.append($0)
                subscription?.dispose()
            },
            completed: { completed = true })
        for value in 1...5 { subject.send(value) }
        subject.sendCompleted()
        XCTAssertEqual(received, [3])
        XCTAssertFalse(completed)
        assertDisposesSource { $0.takeLast(1) }
    }

    // MARK: take(while:) / skip(while:)

    func testTakeWhileCompletesAtTheFirstFailingValueAndDisposesSource() {
        let source = SubscriptionProbe()
        let log = EventLog<Int, TestError>()
        source.signal.take(while: { $0 < 3 }).record(into: log)
        for value in [1, 2, 5, 1] { source.observer?.send(value) }
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testTakeWhileForwardsErrorAndCompletion() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.take(while: { _ in true }).record(into: log)
        subject.send(1)
        subject.sendError(TestError(8))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(8))])
        let all = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).take(while: { _ in true }).record(into: all)
        XCTAssertEqual(all.events, [.next(1), .next(2), .completed])
    }

    func testTakeWhileOnInfiniteSourceTerminatesAndReleases() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: 1...).take(while: { $0 <= 3 }).record(into: log)
        XCTAssertEqual(log.values, [1, 2, 3])
        assertDisposesSource { $0.take(while: { _ in true }) }
        assertReleasesCapture(ending: .fail) { tracked, s in s.take(while: { $0 != tracked.id }) }
    }

    func testSkipWhileSendsEverythingFromTheFirstFailingValue() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2, 5, 1, 2]).skip(while: { $0 < 3 }).record(into: log)
        XCTAssertEqual(log.events, [.next(5), .next(1), .next(2), .completed])
    }

    func testSkipWhileForwardsErrorDisposesAndReleases() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.skip(while: { _ in true }).record(into: log)
        subject.send(1)
        subject.sendError(TestError(6))
        XCTAssertEqual(log.events, [.error(TestError(6))])
        assertDisposesSource { $0.skip(while: { _ in true }) }
        assertReleasesCapture(ending: .complete) { tracked, s in s.skip(while: { $0 == tracked.id }) }
    }
}
