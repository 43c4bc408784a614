import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// A subscriber with a `next` closure only is held as that closure itself (no event wrapper), and `map`
/// and `filter` in front of it pass values straight through, dropping the terminal event it would ignore.
/// These pin down that nothing else changes: the values, the end of the subscription on a terminal event,
/// and the release of every closure when it ends.
final class ValuesOnlySubscriberTests: ResourceCheckedTestCase {
    func testAValuesOnlySubscriberThroughMapAndFilterGetsTheMappedValuesInOrder() {
        let subject = Subject<Int, TestError>()
        var received: [Int] = []
        subject.map { $0 * 10 }.filter { $0 != 20 }.map { $0 + 1 }.subscribe(next: { received.append($0) })
        for value in 1...4 { subject.send(value) }
        XCTAssertEqual(received, [11, 31, 41])
    }

    /// Subscribes values-only through `stage` (its closure keeps `captured` alive), sends 1 and 2, ends
    /// the subject with `end`, and asserts that the subscription ended and freed every closure.
    private func assertTheTerminalEventEndsAValuesOnlySubscriptionAndReleasesItsClosures<Failure: Error>(
        _ subject: Subject<Int, Failure>,
        through stage: (Signal<Int, Failure>, Tracked) -> Signal<Int, Failure>,
        end: () -> Void, received expected: [Int], file: StaticString = #filePath, line: UInt = #line
    ) {
        weak var capturedWeakly: Tracked?
        var received: [Int] = []
        let subscription: any Disposable
        do {
            let captured = Tracked()
            capturedWeakly = captured
            subscription = stage(subject.signal, captured)
                .subscribe(next: { value in withExtendedLifetime(captured) { received.append(value) } })
        }
        subject.send(1)
        subject.send(2)
        XCTAssertNotNil(capturedWeakly, "the subscription holds its closures while it lives", file: file, line: line)
        end()
        XCTAssertTrue(subscription.isDisposed, "the terminal event ends the subscription", file: file, line: line)
        XCTAssertNil(capturedWeakly, "and frees the stage's and the subscriber's closures", file: file, line: line)
        subject.send(3)
        XCTAssertEqual(received, expected, file: file, line: line)
    }

    func testAValuesOnlySubscriptionThroughMapEndsAndReleasesItsClosuresWhenTheSubjectCompletes() {
        let subject = Subject<Int, Never>()
        assertTheTerminalEventEndsAValuesOnlySubscriptionAndReleasesItsClosures(
            subject,
            through: { signal, captured in signal.map { value in withExtendedLifetime(captured) { value + 1 } } },
            end: { subject.sendCompleted() }, received: [2, 3])
    }

    func testAValuesOnlySubscriptionThroughFilterEndsAndReleasesItsClosuresWhenTheSubjectFails() {
        let subject = Subject<Int, TestError>()
        assertTheTerminalEventEndsAValuesOnlySubscriptionAndReleasesItsClosures(
            subject,
            through: { signal, captured in signal.filter { value in withExtendedLifetime(captured) { value > 1 } } },
            end: { subject.sendError(TestError()) }, received: [2])
    }

    func testDisposingAValuesOnlySubscriptionThroughMapStopsTheTransformAndReleasesTheClosures() {
        let subject = Subject<Int, Never>()
        weak var capturedWeakly: Tracked?
        let transformed = Counter()
        var received: [Int] = []
        let subscription: any Disposable
        do {
            let captured = Tracked()
            capturedWeakly = captured
            subscription = subject.map { value in
                withExtendedLifetime(captured) { transformed.increment() }
                return value
            }
            .subscribe(next: { value in withExtendedLifetime(captured) { received.append(value) } })
        }
        subject.send(1)
        subscription.dispose()
        XCTAssertNil(capturedWeakly, "disposal frees the transform and the subscriber's closure")
        subject.send(2)
        XCTAssertEqual(transformed.value, 1, "nothing is transformed after disposal")
        XCTAssertEqual(received, [1])
    }

    func testAValuesOnlySubscriberDisposingItselfFromItsClosureGetsNothingMore() {
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = subject.map { $0 + 1 }.subscribe(next: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received, [2])
        XCTAssertTrue(subscription?.isDisposed ?? false)
        subscription = nil
    }

    func testMapAndFilterStillForwardTheTerminalEventToASubscriberThatAsksForIt() {
        let subject = Subject<Int, TestError>()
        var received: [Int] = []
        var completions = 0
        subject.map { $0 + 1 }.filter { $0 > 2 }
            .subscribe(next: { received.append($0) }, completed: { completions += 1 })
        let failing = Subject<Int, TestError>()
        var failures = 0
        failing.filter { $0 > 0 }.map { $0 * 2 }.subscribe(error: { _ in failures += 1 })
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        failing.sendError(TestError())
        XCTAssertEqual(received, [3])
        XCTAssertEqual(completions, 1)
        XCTAssertEqual(failures, 1)
    }

    func testAValuesOnlySubscriberOfAColdSignalThroughMapAndFilterGetsEveryValueAndEnds() {
        var received: [Int] = []
        let subscription = Signal<Int, Never>(values: 1...6).filter { $0 % 2 == 0 }.map { $0 * 3 }
            .subscribe(next: { received.append($0) })
        XCTAssertEqual(received, [6, 12, 18])
        XCTAssertTrue(subscription.isDisposed, "the cold signal completed: the subscription ended")
    }
}
