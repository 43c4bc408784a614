import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class TransformingTests: ResourceCheckedTestCase {
    // MARK: scan

    func testScanSendsEveryRunningResult() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2, 3]).scan(0, +).record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(3), .next(6), .completed])
    }

    func testScanChangesTheValueType() {
        let log = EventLog<String, Never>()
        Signal<Int, Never>(values: [1, 2]).scan("") { $0 + String($1) }.record(into: log)
        XCTAssertEqual(log.values, ["1", "12"])
    }

    func testScanStartsFromInitialForEachSubscription() {
        let scanned = Signal<Int, Never>(values: [1, 2]).scan(10, +)
        let first = EventLog<Int, Never>()
        let second = EventLog<Int, Never>()
        scanned.record(into: first)
        scanned.record(into: second)
        XCTAssertEqual(first.values, [11, 13])
        XCTAssertEqual(second.values, [11, 13])
    }

    func testScanForwardsError() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.scan(0, +).record(into: log)
        subject.send(2)
        subject.sendError(TestError(4))
        XCTAssertEqual(log.events, [.next(2), .error(TestError(4))])
    }

    func testScanDisposalDisposesSource() {
        assertDisposesSource { $0.scan(0, +) }
    }

    func testScanReleasesClosureWhenDisposedOrFinished() {
        assertReleasesCapture(ending: .dispose) { tracked, s in s.scan(0) { $0 + $1 + tracked.id } }
        assertReleasesCapture(ending: .complete) { tracked, s in s.scan(0) { $0 + $1 + tracked.id } }
        assertReleasesCapture(ending: .fail) { tracked, s in s.scan(0) { $0 + $1 + tracked.id } }
    }

    // MARK: reduce

    func testReduceSendsOneValueOnCompletion() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.reduce(0, +).record(into: log)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(log.events, [])
        subject.send(3)
        subject.sendCompleted()
        XCTAssertEqual(log.events, [.next(6), .completed])
    }

    func testReduceOfEmptySignalSendsInitial() {
        let log = EventLog<Int, Never>()
        Signal<Int, Never>.empty.reduce(10, +).record(into: log)
        XCTAssertEqual(log.events, [.next(10), .completed])
    }

    func testReduceFailureSendsOnlyTheError() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, TestError>()
        subject.reduce(0, +).record(into: log)
        subject.send(1)
        subject.sendError(TestError(2))
        XCTAssertEqual(log.events, [.error(TestError(2))])
    }

    func testReduceSendsNothingAfterDisposalFromTheValueCallback() {
        let subject = Subject<Int, Never>()
        var received: [String] = []
        var subscription: (any Disposable)?
        subscription = subject.reduce(0, +).subscribe(
            next: {
                received.append("next \($0)")
                subscription?.dispose()
            },
            completed: { received.append("completed") })
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        XCTAssertEqual(received, ["next 3"])
    }

    func testReduceDisposalDisposesSource() {
        assertDisposesSource { $0.reduce(0, +) }
    }

    func testReduceReleasesClosure() {
        assertReleasesCapture(ending: .dispose) { tracked, s in s.reduce(0) { $0 + $1 + tracked.id } }
        assertReleasesCapture(ending: .complete) { tracked, s in s.reduce(0) { $0 + $1 + tracked.id } }
    }

    // MARK: collect

    func testCollectSendsTheArrayOnCompletion() {
        let log = EventLog<[Int], Never>()
        Signal<Int, Never>(values: 1...3).collect().record(into: log)
        XCTAssertEqual(log.events, [.next([1, 2, 3]), .completed])
    }

    func testCollectOfEmptySignalSendsEmptyArray() {
        let log = EventLog<[Int], Never>()
        Signal<Int, Never>.empty.collect().record(into: log)
        XCTAssertEqual(log.events, [.next([]), .completed])
    }

    func testCollectFailureSendsOnlyTheError() {
        let subject = Subject<Int, TestError>()
        let log = EventLog<[Int], TestError>()
        subject.collect().record(into: log)
        subject.send(1)
        subject.sendError(TestError(3))
        XCTAssertEqual(log.events, [.error(TestError(3))])
    }

    func testCollectStartsEmptyForEachSubscription() {
        let collected = Signal<Int, Never>(values: [1, 2]).collect()
        let first = EventLog<[Int], Never>()
        let second = EventLog<[Int], Never>()
        collected.record(into: first)
        collected.record(into: second)
        XCTAssertEqual(first.values, [[1, 2]])
        XCTAssertEqual(second.values, [[1, 2]])
    }

    func testCollectDisposalDisposesSource() {
        assertDisposesSource { $0.collect() }
    }

    // MARK: materialize / dematerialize

    func testMaterializeTurnsValuesAndErrorIntoValues() {
        let log = EventLog<Event<Int, TestError>, Never>()
        let subject = Subject<Int, TestError>()
        subject.materialize().record(into: log)
        subject.send(1)
        subject.sendError(TestError(9))
        XCTAssertEqual(log.events, [.next(.next(1)), .next(.error(TestError(9))), .completed])
    }

    func testMaterializeTurnsCompletionIntoAValue() {
        let log = EventLog<Event<Int, Never>, Never>()
        Signal<Int, Never>(values: [5]).materialize().record(into: log)
        XCTAssertEqual(log.events, [.next(.next(5)), .next(.completed), .completed])
    }

    func testMaterializeDisposalDisposesSource() {
        assertDisposesSource { $0.materialize() }
    }

    func testDematerializeUndoesMaterialize() {
        let failing = EventLog<Int, TestError>()
        Signal<Int, TestError> { observer in
            observer.send(1)
            observer.sendError(TestError(2))
            return nil
        }.materialize().dematerialize().record(into: failing)
        XCTAssertEqual(failing.events, [.next(1), .error(TestError(2))])

        let completing = EventLog<Int, Never>()
        Signal<Int, Never>(values: [1, 2]).materialize().dematerialize().record(into: completing)
        XCTAssertEqual(completing.events, [.next(1), .next(2), .completed])
    }

    func testDematerializeEndsAtTheFirstTerminalEventValueAndDisposesSource() {
        let disposed = Counter()
        let holder = EventObserverHolder<Event<Int, TestError>>()
        let log = EventLog<Int, TestError>()
        Signal<Event<Int, TestError>, Never> { observer in
            holder.observer = observer
            return AnyDisposable { disposed.increment() }
        }.dematerialize().record(into: log)
        holder.observer?.send(.next(1))
        holder.observer?.send(.completed)
        holder.observer?.send(.next(2))
        XCTAssertEqual(log.events, [.next(1), .completed])
        XCTAssertEqual(disposed.value, 1)
    }

    func testDematerializeOnAFailingSignalForwardsItsError() {
        let subject = Subject<Event<Int, TestError>, TestError>()
        let log = EventLog<Int, TestError>()
        subject.dematerialize().record(into: log)
        subject.send(.next(1))
        subject.sendError(TestError(5))
        XCTAssertEqual(log.events, [.next(1), .error(TestError(5))])
    }

    // MARK: mapError / promoteError

    func testMapErrorTransformsTheFailureAndKeepsValues() {
        struct Wrapped: Error, Equatable { let inner: TestError }
        let subject = Subject<Int, TestError>()
        let log = EventLog<Int, Wrapped>()
        subject.mapError { Wrapped(inner: $0) }.record(into: log)
        subject.send(1)
        subject.sendError(TestError(3))
        XCTAssertEqual(log.events, [.next(1), .error(Wrapped(inner: TestError(3)))])
    }

    func testMapErrorForwardsCompletionAndDisposes() {
        let log = EventLog<Int, TestError>()
        Signal<Int, TestError>(values: [1]).mapError { $0 }.record(into: log)
        XCTAssertEqual(log.events, [.next(1), .completed])
        assertDisposesSource { $0.mapError { $0 } }
        assertReleasesCapture(ending: .dispose) { tracked, s in s.mapError { _ in TestError(tracked.id) } }
    }

    func testPromoteErrorLetsANeverSignalCombineWithAFailableOne() {
        let query = Subject<Int, Never>()
        let log = EventLog<Int, TestError>()
        query.promoteError(TestError.self)
            .flatMap { value in value < 0 ? Signal(error: TestError(value)) : Signal(value: value) }
            .record(into: log)
        query.send(1)
        query.send(-7)
        XCTAssertEqual(log.events, [.next(1), .error(TestError(-7))])
    }

    func testPromoteErrorForwardsValuesAndCompletion() {
        let log = EventLog<Int, TestError>()
        Signal<Int, Never>(values: [1, 2]).promoteError().record(into: log)
        XCTAssertEqual(log.events, [.next(1), .next(2), .completed])

        let disposed = Counter()
        let holder = ObserverKeeper()
        let subscription = Signal<Int, Never> { observer in
            holder.keep(observer)
            return AnyDisposable { disposed.increment() }
        }.promoteError(TestError.self).subscribe()
        subscription.dispose()
        XCTAssertEqual(disposed.value, 1)
    }
}
