import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class ZipTests: ResourceCheckedTestCase {
    /// The fixture lives from setUp to tearDown only: XCTest keeps test case instances until the process
    /// exits, and what they hold would otherwise outlive the test (and show up in the leak check).
    private final class Fixture {
        let subject1 = Subject<Int, TestError>()
        let subject2 = Subject<Int, TestError>()
        let log = EventLog<String, TestError>()
    }

    private var fixture: Fixture?
    private var subject1: Subject<Int, TestError> { fixture!.subject1 }
    private var subject2: Subject<Int, TestError> { fixture!.subject2 }
    private var log: EventLog<String, TestError> { fixture!.log }

    override func setUp() {
        super.setUp()
        fixture = Fixture()
        Signal.zip(subject1, subject2).map { "\($0)\($1)" }.record(into: log)
    }

    override func tearDown() {
        fixture = nil  // releasing the subjects ends the zip subscription: the leak check sees it freed
        super.tearDown()
    }

    private func send(_ values: [Int], to subject: Subject<Int, TestError>, then terminal: Event<Int, TestError>) {
        for value in values { subject.send(value) }
        subject.send(event: terminal)
    }

    // MARK: Values

    func testZipPairsValuesByPosition() {
        subject1.send(1)
        subject1.send(2)
        XCTAssertEqual(log.values, [])
        subject2.send(10)
        subject2.send(20)
        subject2.send(30)
        XCTAssertEqual(log.values, ["110", "220"])
        subject1.send(3)
        XCTAssertEqual(log.values, ["110", "220", "330"])
    }

    func testZipBuffersTheFasterSideInOrder() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let pairs = EventLog<Int, Never>()
        a.zip(with: b).map { $0 * 1000 + $1 }.record(into: pairs)
        for value in 0..<200 { a.send(value) }  // buffer grows past its compaction threshold
        for value in 0..<100 { b.send(value) }
        for value in 200..<250 { a.send(value) }
        for value in 100..<250 { b.send(value) }
        XCTAssertEqual(pairs.values, (0..<250).map { $0 * 1000 + $0 })
    }

    func testZipWithSynchronousSourcesPairsByPosition() {
        let pairs = EventLog<String, Never>()
        Signal<String, Never>(values: ["a", "b", "c"]).zip(with: Signal(values: [1, 2])).map { "\($0)\($1)" }
            .record(into: pairs)
        XCTAssertEqual(pairs.events, [.next("a1"), .next("b2"), .completed])
    }

    func testStaticZipInfersTypesForTwoThreeAndFourSignals() {
        let a = Subject<Int, Never>()
        let b = Subject<String, Never>()
        let c = Subject<Bool, Never>()
        let d = ReplaySubject<Double, Never>()
        let two: Signal<(Int, String), Never> = Signal.zip(a, b)
        let three: Signal<(Int, String, Bool), Never> = Signal.zip(a, b, c)
        let four: Signal<(Int, String, Bool, Double), Never> = Signal.zip(a, b, c, d)
        let logs = (EventLog<String, Never>(), EventLog<String, Never>(), EventLog<String, Never>())
        two.map { "\($0)\($1)" }.record(into: logs.0)
        three.map { "\($0)\($1)\($2)" }.record(into: logs.1)
        four.map { "\($0)\($1)\($2)\($3)" }.record(into: logs.2)
        a.send(1)
        a.send(2)
        b.send("x")
        c.send(true)
        d.send(0.5)
        b.send("y")
        XCTAssertEqual(logs.0.values, ["1x", "2y"])
        XCTAssertEqual(logs.1.values, ["1xtrue"])
        XCTAssertEqual(logs.2.values, ["1xtrue0.5"])
        c.sendCompleted()
        XCTAssertEqual(logs.1.events.last, .completed)
        XCTAssertEqual(logs.2.events.last, .completed)
        XCTAssertNotEqual(logs.0.events.last, .completed)
    }

    func testZipSubscribesASideEffectingSignalOncePerInput() {
        // RAC spec: "should handle multiples of the same side-effecting signal".
        let counter = Counter()
        let sideEffecting = Signal<Int, Never> { observer in
            counter.increment()
            observer.send(1)
            observer.sendCompleted()
            return nil
        }
        let pairs = EventLog<String, Never>()
        let zipped = Signal.zip(sideEffecting, sideEffecting).map { "\($0)\($1)" }
        XCTAssertEqual(counter.value, 0)
        zipped.record(into: pairs)
        XCTAssertEqual(counter.value, 2)
        XCTAssertEqual(pairs.values, ["11"])
    }

    // MARK: Completion and errors (RAC's +zip: spec)

    func testZipCompletesAsSoonAsNoNewPairIsPossible() {
        subject1.send(1)
        subject2.send(1)
        XCTAssertNotEqual(log.events.last, .completed)
        subject1.send(2)
        subject1.sendCompleted()
        XCTAssertNotEqual(log.events.last, .completed)
        subject2.send(2)
        XCTAssertEqual(log.events, [.next("11"), .next("22"), .completed])
    }

    func testZipCompletesAtOnceWhenEitherSideCompletesWithNothingBuffered() {
        subject2.sendCompleted()
        XCTAssertEqual(log.events, [.completed])
    }

    func testZipForwardsAnErrorSentEarlierAndBeforeACompletion() {
        send([1, 2], to: subject1, then: .error(TestError()))
        send([1, 2, 3], to: subject2, then: .completed)
        XCTAssertEqual(log.events.last, .error(TestError()))
        XCTAssertFalse(log.events.contains(.completed))
    }

    func testZipForwardsAnErrorSentEarlierAndAfterACompletion() {
        send([1, 2, 3], to: subject1, then: .error(TestError()))
        send([1, 2], to: subject2, then: .completed)
        XCTAssertEqual(log.events.last, .error(TestError()))
        XCTAssertFalse(log.events.contains(.completed))
    }

    func testZipForwardsAnErrorSentLaterAndBeforeACompletion() {
        send([1, 2, 3], to: subject2, then: .completed)
        send([1, 2], to: subject1, then: .error(TestError()))
        XCTAssertEqual(log.events, [.next("11"), .next("22"), .error(TestError())])
    }

    func testZipIgnoresAnErrorSentLaterAndAfterACompletion() {
        send([1, 2], to: subject2, then: .completed)
        send([1, 2, 3], to: subject1, then: .error(TestError()))
        XCTAssertEqual(log.events, [.next("11"), .next("22"), .completed])
    }

    func testDisposingZipDisposesBothUpstreams() {
        let a = ProbeSource<Int, Never>()
        let b = ProbeSource<Int, Never>()
        let pairs = EventLog<(Int, Int), Never>()
        let subscription = a.signal.zip(with: b.signal).record(into: pairs)
        a.send(1)
        subscription.dispose()
        b.send(1)
        XCTAssertEqual(pairs.count, 0)
        XCTAssertEqual(a.disposals, 1)
        XCTAssertEqual(b.disposals, 1)
    }

    func testZipErrorDisposesBothUpstreams() {
        let a = ProbeSource<Int, TestError>()
        let b = ProbeSource<Int, TestError>()
        let events = EventLog<(Int, Int), TestError>()
        a.signal.zip(with: b.signal).record(into: events)
        a.sendError(TestError(4))
        XCTAssertEqual(events.events.first?.error, TestError(4))
        XCTAssertEqual(a.disposals, 1)
        XCTAssertEqual(b.disposals, 1)
    }

    // MARK: Arrays

    func testZipOfArrayHandlesSignalsSendingValuesUnevenly() {
        // RAC spec: "should handle signals sending values unevenly".
        let a = Subject<Int, TestError>()
        let b = Subject<Int, TestError>()
        let c = Subject<Int, TestError>()
        let events = EventLog<String, TestError>()
        Signal.zip([a, b, c]).map { $0.map(String.init).joined() }.record(into: events)
        for value in 1...3 { a.send(value) }
        b.send(1)
        c.send(1)
        c.send(2)
        XCTAssertEqual(events.events, [.next("111")])
        for value in 2...4 { b.send(value) }
        b.sendCompleted()
        XCTAssertEqual(events.events, [.next("111"), .next("222")])
        for value in 3...5 { c.send(value) }
        c.sendError(TestError())
        XCTAssertEqual(events.events, [.next("111"), .next("222"), .next("333"), .error(TestError())])
        for value in 4...7 { a.send(value) }
        XCTAssertEqual(events.count, 4)
    }

    func testZipOfEmptyArrayCompletesAtOnce() {
        let events = EventLog<[Int], Never>()
        Signal.zip([Subject<Int, Never>]()).record(into: events)
        XCTAssertEqual(events.events, [.completed])
    }

    func testZipOfOneSignalSendsOneElementArrays() {
        let subject = Subject<Int, Never>()
        let events = EventLog<[Int], Never>()
        Signal.zip([subject]).record(into: events)
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        XCTAssertEqual(events.events, [.next([1]), .next([2]), .completed])
    }

    func testZipOfArrayCompletesWhenACompletedInputsBufferIsUsedUp() {
        let subjects = (0..<3).map { _ in Subject<Int, Never>() }
        let events = EventLog<[Int], Never>()
        Signal.zip(subjects).record(into: events)
        subjects[0].send(1)
        subjects[0].send(2)
        subjects[0].sendCompleted()
        subjects[1].send(1)
        subjects[1].send(2)
        subjects[2].send(1)
        XCTAssertEqual(events.events, [.next([1, 1, 1])])
        subjects[2].send(2)
        XCTAssertEqual(events.events, [.next([1, 1, 1]), .next([2, 2, 2]), .completed])
    }

    func testDisposingZipOfArrayDisposesEveryInput() {
        let probes = (0..<3).map { _ in ProbeSource<Int, Never>() }
        let subscription = Signal.zip(probes.map(\.signal)).subscribe()
        subscription.dispose()
        XCTAssertEqual(probes.map(\.subscriptions), [1, 1, 1])
        XCTAssertEqual(probes.map(\.disposals), [1, 1, 1])
    }

    // MARK: Lifetimes and reentrancy

    func testZipReleasesClosuresAfterCompletion() {
        weak var weakTracked: Tracked?
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            a.zip(with: b).map { _ in tracked.id }.subscribe(next: { _ in _ = tracked })
        }
        a.send(1)
        XCTAssertNotNil(weakTracked)
        b.sendCompleted()
        XCTAssertNil(weakTracked)
    }

    func testZipEndsQuietlyWhenAllItsInputsAreGone() {
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            let tracked = Tracked()
            weakTracked = tracked
            subscription = Signal.zip([a, b]).subscribe(next: { _ in _ = tracked })
            a.send(1)
        }
        XCTAssertNil(weakTracked)
        XCTAssertEqual(subscription?.isDisposed, true)
        subscription = nil
    }

    func testObserverCompletingItsOwnSourceInsideTheCallbackDoesNotDeadlock() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        a.zip(with: b).map { $0 + $1 }.subscribeEvents { event in
            events.append(event)
            if case .next = event { b.sendCompleted() }
        }
        a.send(1)
        a.send(2)
        b.send(1)
        // b completed with nothing buffered: no further pair is possible, although a still has 2.
        XCTAssertEqual(events.events, [.next(2), .completed])
    }

    func testZipDoesNotCompleteAfterTheObserverDisposedInItsCallback() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        let holder = DisposableHolder()
        holder.disposable = a.zip(with: b).map { $0 + $1 }.subscribeEvents { event in
            events.append(event)
            holder.disposable?.dispose()
        }
        a.send(1)
        a.sendCompleted()  // a is exhausted once its buffered value is paired
        b.send(1)  // pairs (the observer disposes in its callback) and would then complete
        XCTAssertEqual(events.events, [.next(2)])
    }

    // MARK: Threads

    func testZipFedFromManyThreadsPairsEveryValueExactlyOnce() {
        let perThread = 2_000
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let detector = OverlapDetector()
        let pairs = EventLog<Int, Never>()
        a.zip(with: b).subscribeEvents { event in
            detector.enter()
            switch event {
            case .next(let (x, y)): pairs.append(.next(x - y))
            default: pairs.append(event.map { _ in 0 })
            }
            detector.leave()
        }
        runThreads(2) { index in
            let subject = index == 0 ? a : b
            for value in 0..<perThread { subject.send(value) }
            subject.sendCompleted()
        }
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(pairs.values.count, perThread)
        XCTAssertTrue(pairs.values.allSatisfy { $0 == 0 }, "values paired out of order")
        XCTAssertEqual(pairs.events.last, .completed)
    }

    func testZipOfArrayFedFromManyThreadsPairsEveryValueExactlyOnce() {
        let perThread = 1_000
        let subjects = (0..<4).map { _ in Subject<Int, Never>() }
        let detector = OverlapDetector()
        let rows = EventLog<Bool, Never>()
        Signal.zip(subjects).subscribeEvents { event in
            detector.enter()
            rows.append(event.map { Set($0).count == 1 })
            detector.leave()
        }
        runThreads(4) { index in
            for value in 0..<perThread { subjects[index].send(value) }
        }
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(rows.values.count, perThread)
        XCTAssertTrue(rows.values.allSatisfy { $0 })
    }
}
