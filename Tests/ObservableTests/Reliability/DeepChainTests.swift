import Foundation
import Observable
import TetherTestSupport
import XCTest

/// Long chains built programmatically (reducing over an array of signals or of stages): subscribing,
/// delivering and releasing must not overflow the stack, and every value must arrive. Each chain runs
/// on the test's own thread (the main thread, with its 8 MB stack), as users run them.
final class DeepChainTests: XCTestCase {
    static let chainLength = 100_000
    static let nestingDepth = 10_000

    func testSubscribingThroughAHundredThousandMapsDeliversEveryValue() {
        var chain = Signal<Int, Never>(values: 0..<10)
        for _ in 0..<Self.chainLength { chain = chain.map { $0 + 1 } }
        var received: [Int] = []
        var completions = 0
        chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        XCTAssertEqual(received, Array(Self.chainLength..<Self.chainLength + 10))
        XCTAssertEqual(completions, 1)
    }

    func testAValuesOnlySubscriberKeepsEveryStageOfAThousandMapsOnTheValuesPath() {
        // The deep-chain boundaries (every 128th nested start) take their downstream's form: were one an
        // event sink, every `map` above it would pick the event form and make an event per value.
        var sourceSinkIsValuesOnly: Bool?
        var chain = Signal<Int, Never>(unsafeStart: { sink, lifetime in
            if case .values = sink { sourceSinkIsValuesOnly = true } else { sourceSinkIsValuesOnly = false }
            sink.send(next: 1)
            sink.send(.completed)
            lifetime.dispose()
        })
        for _ in 0..<1_000 { chain = chain.map { $0 + 1 } }
        var received: [Int] = []
        let subscription = chain.subscribe(next: { received.append($0) })
        XCTAssertEqual(sourceSinkIsValuesOnly, true)
        XCTAssertEqual(received, [1_001])
        XCTAssertTrue(subscription.isDisposed, "the source's end ends the subscription")
    }

    func testAValuesOnlySubscriptionThroughAHundredThousandMapsEndsWhenTheSubjectCompletes() {
        let subject = Subject<Int, Never>()
        var chain = subject.signal
        for _ in 0..<Self.chainLength { chain = chain.map { $0 + 1 } }
        var received: [Int] = []
        let subscription = chain.subscribe(next: { received.append($0) })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received, [1 + Self.chainLength, 2 + Self.chainLength])
        XCTAssertFalse(subscription.isDisposed)
        subject.sendCompleted()
        XCTAssertTrue(subscription.isDisposed, "the subject's completion ends the subscription past every boundary")
    }

    /// Operators are counted per thread for the deep-chain links: a chain built, subscribed and released on a
    /// thread of its own (with the main thread's 8 MB of stack) is linked as one built on the main thread, so
    /// releasing it does not nest a release per stage.
    func testAHundredThousandMapsBuiltAndReleasedOnAnotherThreadDeliverAndAreFreed() {
        let received = Locked<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let subject = Subject<Int, Never>()
            var chain = subject.signal
            for _ in 0..<Self.chainLength { chain = chain.map { $0 + 1 } }
            let subscription = chain.subscribe(next: { value in received.mutate { $0.append(value) } })
            subject.send(1)
            subscription.dispose()
            subject.send(2)
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        waitOrFail(finished, within: 120, "the chain's thread")
        XCTAssertEqual(received.value, [1 + Self.chainLength])
    }

    func testAValuesOnlySubscriptionThroughAHundredThousandMapsOfAColdSourceGetsEveryValueThenEnds() {
        var chain = Signal<Int, Never>(values: 0..<10)
        for _ in 0..<Self.chainLength { chain = chain.map { $0 + 1 } }
        var received: [Int] = []
        let subscription = chain.subscribe(next: { received.append($0) })
        XCTAssertEqual(received, Array(Self.chainLength..<Self.chainLength + 10))
        XCTAssertTrue(subscription.isDisposed, "ended after the values queued past the stack budget")
    }

    func testASubjectsValuesReachTheSubscriberThroughAHundredThousandMapsBeforeSendReturns() {
        let subject = Subject<Int, Never>()
        var chain = subject.signal
        for _ in 0..<Self.chainLength { chain = chain.map { $0 + 1 } }
        var received: [Int] = []
        var completions = 0
        let subscription = chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        for value in 0..<5 {
            subject.send(value)
            XCTAssertEqual(received.last, value + Self.chainLength, "delivered before send(\(value)) returned")
        }
        subject.sendCompleted()
        XCTAssertEqual(received.count, 5)
        XCTAssertEqual(completions, 1)
        subscription.dispose()
    }

    func testDisposingInsideTheCallbackAtTheEndOfAHundredThousandStagesStopsDelivery() {
        let subject = Subject<Int, Never>()
        var chain = subject.signal
        for index in 0..<Self.chainLength {
            chain = index.isMultiple(of: 2) ? chain.map { $0 + 1 } : chain.filter { _ in true }
        }
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = chain.subscribe(next: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received, [1 + Self.chainLength / 2])
    }

    func testAHundredThousandMixedStagesDeliverEveryValueInOrder() {
        var chain = Signal<Int, Never>(values: 0..<20)
        for index in 0..<Self.chainLength {
            switch index % 4 {
            case 0: chain = chain.map { $0 * 2 }
            case 1: chain = chain.map { $0 / 2 }
            case 2: chain = chain.filter { _ in true }
            default: chain = chain.skip(0)
            }
        }
        var received: [Int] = []
        var completions = 0
        chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        XCTAssertEqual(received, Array(0..<20))
        XCTAssertEqual(completions, 1)
    }

    func testTenThousandNestedConcatsDeliverEveryValueInOrder() {
        var chain = Signal<Int, Never>(value: 0)
        for index in 1...Self.nestingDepth { chain = chain.concat(Signal(value: index)) }
        var received: [Int] = []
        var completions = 0
        chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        XCTAssertEqual(received, Array(0...Self.nestingDepth))
        XCTAssertEqual(completions, 1)
    }

    func testTenThousandConcatsNestedToTheRightDeliverEveryValueInOrder() {
        // `Signal(value:).concat(chain)`: the chain is the last signal of each list, so nothing is flattened and
        // each `concat` starts the next from inside its own completion, ten thousand starts deep.
        var chain = Signal<Int, Never>(value: Self.nestingDepth)
        for index in (0..<Self.nestingDepth).reversed() { chain = Signal(value: index).concat(chain) }
        var received: [Int] = []
        var completions = 0
        chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        XCTAssertEqual(received, Array(0...Self.nestingDepth))
        XCTAssertEqual(completions, 1)
    }

    func testTenThousandConcatsNestedToTheRightAreFreedOnAThreadWithASmallStack() {
        // Each list holds the next chain: freed by nested releases, ten thousand of them overflow 256 KB (and the
        // main thread's 8 MB under AddressSanitizer).
        let freed = Counter()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let counted = FreeCounted(freed)
                var chain = Signal<Int, Never> { observer in
                    _ = counted
                    observer.sendCompleted()
                    return nil
                }
                for index in 0..<Self.nestingDepth { chain = Signal(value: index).concat(chain) }
            }
            finished.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        waitOrFail(finished, within: 120, "the chain's thread")
        XCTAssertEqual(freed.value, 1)
    }

    func testTenThousandNestedCatchesEachReplaceTheFailureBeforeThem() {
        var chain = Signal<Int, TestError>(values: [0]).concat(Signal(error: TestError()))
        for index in 1...Self.nestingDepth {
            chain = chain.catch { _ in Signal<Int, TestError>(value: index).concat(Signal(error: TestError())) }
        }
        var received: [Int] = []
        var errors = 0
        chain.subscribe(next: { received.append($0) }, error: { _ in errors += 1 })
        XCTAssertEqual(received, Array(0...Self.nestingDepth))
        XCTAssertEqual(errors, 1)
    }

    func testTenThousandNestedDeferredSignalsSubscribeTheInnermost() {
        let chain = Self.nestedDeferred(depth: Self.nestingDepth)
        var received: [Int] = []
        var completions = 0
        chain.subscribe(next: { received.append($0) }, completed: { completions += 1 })
        XCTAssertEqual(received, Array(0..<10))
        XCTAssertEqual(completions, 1)
    }

    /// `depth` deferred signals, each making the next one when subscribed (a `@Sendable` closure cannot
    /// capture a ready-made `Signal`), around `Signal(values: 0..<10)`.
    private static func nestedDeferred(depth: Int) -> Signal<Int, Never> {
        guard depth > 0 else { return Signal(values: 0..<10) }
        return Signal.deferred { nestedDeferred(depth: depth - 1) }
    }
}
