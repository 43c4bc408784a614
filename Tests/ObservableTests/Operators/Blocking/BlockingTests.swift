import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// The blocking helpers `first()`, `first(default:)`, `waitUntilCompleted()` and `toArray()`, after
/// RACSignalSpec's `-first`, `-firstOrDefault:`, `-waitUntilCompleted:` and `-toArray` cases.
final class BlockingTests: ResourceCheckedTestCase {
    /// Runs `body` on a background thread and waits for it.
    private func onBackgroundThread(_ body: @escaping @Sendable () throws -> Void) {
        let done = expectation(description: "background work finished")
        Thread.detachNewThread {
            XCTAssertFalse(Thread.isMainThread)
            do {
                try body()
            } catch {
                XCTFail("unexpected error: \(error)")
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    // MARK: first / first(default:)

    func testFirstReturnsTheFirstValueAndDisposes() throws {
        let disposed = Counter()
        let source = Signal<Int, TestError> { observer in
            observer.send(1)
            observer.send(2)
            observer.sendCompleted()
            return AnyDisposable { disposed.increment() }
        }
        XCTAssertEqual(try source.first(), 1)
        XCTAssertEqual(disposed.value, 1)
    }

    func testFirstReturnsNilWhenTheSignalCompletesWithoutAValue() throws {
        XCTAssertNil(try Signal<Int, TestError>.empty.first())
    }

    func testFirstOrDefaultReturnsTheDefaultValueWhenTheSignalCompletesWithoutAValue() throws {
        XCTAssertEqual(try Signal<Int, TestError>.empty.first(default: 5), 5)
        XCTAssertEqual(try Signal<Int, TestError>(values: [3, 4]).first(default: 5), 3)
    }

    func testFirstRethrowsTheSignalsErrorTyped() {
        do {
            _ = try Signal<Int, TestError>(error: TestError(3)).first(default: 0)
            XCTFail("expected an error")
        } catch {
            // `error` is a `BlockingError<TestError>`: no cast needed.
            XCTAssertEqual(error, .failed(TestError(3)))
        }
    }

    func testFirstWaitsOnABackgroundThreadForAValueSentLater() {
        onBackgroundThread {
            let worker = QueueScheduler(name: "blocking-tests")
            let source = Signal<Int, TestError>(values: [7, 8]).deliver(on: worker)
            XCTAssertEqual(try source.first(), 7)
        }
    }

    func testFirstWaitsForAValueSentFromAnotherThread() {
        let subject = Subject<Int, Never>()
        let box = UncheckedBox(subject)
        let started = expectation(description: "subscribed")
        let result = UncheckedBox(EventLog<Int, Never>())
        let done = expectation(description: "returned")
        Thread.detachNewThread {
            let waiting = box.value.doSubscribed { started.fulfill() }
            if let value = try? waiting.first() { result.value.append(.next(value)) }
            done.fulfill()
        }
        wait(for: [started], timeout: 10)
        subject.send(42)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(result.value.values, [42])
    }

    // MARK: waitUntilCompleted

    func testWaitUntilCompletedReturnsAfterCompletion() {
        onBackgroundThread {
            let worker = QueueScheduler(name: "blocking-tests")
            let values = Counter()
            let source = Signal<Int, TestError>(values: [1, 2, 3]).deliver(on: worker)
                .doNext { _ in values.increment() }
            XCTAssertNoThrow(try source.waitUntilCompleted())
            XCTAssertEqual(values.value, 3, "every value was sent before it returned")
        }
    }

    func testWaitUntilCompletedThrowsTheErrorTyped() {
        let failing = Signal<Int, TestError>(values: [1]).concat(Signal(error: TestError(9)))
        do {
            try failing.waitUntilCompleted()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .failed(TestError(9)))
        }
    }

    // MARK: toArray

    func testToArrayReturnsEveryValueInOrder() throws {
        XCTAssertEqual(try Signal<Int, TestError>(values: 1...4).toArray(), [1, 2, 3, 4])
        XCTAssertEqual(try Signal<Int, TestError>.empty.toArray(), [])
    }

    func testToArrayWaitsOnABackgroundThread() {
        onBackgroundThread {
            let worker = QueueScheduler(name: "blocking-tests")
            XCTAssertEqual(try Signal(values: ["a", "b"]).deliver(on: worker).toArray(), ["a", "b"])
        }
    }

    func testToArrayThrowsTheErrorTyped() {
        do {
            _ = try Signal<Int, TestError>(values: [1]).concat(Signal(error: TestError(2))).toArray()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .failed(TestError(2)))
        }
    }

    // MARK: Refusing to deadlock

    func testBlockingHelpersRefuseToBlockTheMainThread() throws {
        try XCTSkipUnless(Thread.isMainThread, "XCTest runs this test on the main thread")
        let source = ProbeSource<Int, Never>()
        XCTAssertThrowsError(try source.signal.first()) { error in
            XCTAssertEqual(error as? BlockingError<Never>, .wouldBlockMainThread)
        }
        XCTAssertThrowsError(try source.signal.first(default: 0))
        XCTAssertThrowsError(try source.signal.waitUntilCompleted())
        XCTAssertThrowsError(try source.signal.toArray())
        XCTAssertEqual(source.subscriptions, 4)
        XCTAssertEqual(source.disposals, 4, "each refused subscription was disposed")
    }

    func testMainThreadRefusalSaysWhatToDo() {
        let message = BlockingError<Never>.wouldBlockMainThread.description
        XCTAssertTrue(message.contains("main thread"), message)
        XCTAssertTrue(message.contains("background thread"), message)
    }

    func testASignalThatEndsWithoutATerminalEventThrowsInterrupted() {
        // A recipe that drops its observer can never send: the subscription ends at once.
        let silent = Signal<Int, TestError> { _ in nil }
        do {
            _ = try silent.toArray()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .interrupted)
        }
    }
}

extension SignalConvertible where Self: Sendable {
    /// Runs `action` once the subscription has been made (after the source's start returned).
    fileprivate func doSubscribed(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
        Signal { observer in
            let subscription = self.subscribe(observer)
            action()
            return subscription
        }
    }
}
