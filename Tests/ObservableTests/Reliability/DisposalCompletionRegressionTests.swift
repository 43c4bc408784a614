import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Issue 14, scenarios 4–6: when `dispose()` returns, the work it promises is done (DESIGN.md guarantee
/// 2) — a terminal callback running on another thread has returned, a composite's children have been
/// disposed even when another thread started disposing it — and disposables stay memory-safe when they
/// are read and replaced from two threads.
///
/// A hang becomes a failure through a watchdog; nothing asserts a duration. The sleeps below only make
/// the window in which the old core misbehaved wide enough to hit every time.
final class DisposalCompletionRegressionTests: ResourceCheckedTestCase {
    // MARK: 4 — a terminal callback running on another thread

    /// Subscribes to a recipe whose observer sends a terminal event from a background thread; while the
    /// terminal callback runs there (it sleeps briefly), disposes on this thread and checks that the
    /// callback had returned by the time `dispose()` did.
    private func assertDisposeWaitsForATerminalCallback(
        sendingError: Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        let problems = ProblemLog()
        for round in 0..<StressScale.scaled(10) {
            let callbackStarted = DispatchSemaphore(value: 0)
            let callbackFinished = Flag()
            let senderReturned = DispatchSemaphore(value: 0)
            let signal = Signal<Int, TestError> { observer -> (any Disposable)? in
                startThread {
                    observer.send(1)
                    if sendingError { observer.sendError(TestError(round)) } else { observer.sendCompleted() }
                    senderReturned.signal()
                }
                return nil
            }
            let onTerminal = {
                callbackStarted.signal()
                usleep(50_000)
                callbackFinished.raise()
            }
            let subscription =
                sendingError
                ? signal.subscribe(error: { _ in onTerminal() }) : signal.subscribe(completed: onTerminal)
            guard waitOrFail(callbackStarted, "the terminal callback", file: file, line: line) else { return }
            subscription.dispose()
            if !callbackFinished.isRaised { problems.add("round \(round): dispose() returned while the callback ran") }
            guard waitOrFail(senderReturned, "the sending thread's return", file: file, line: line) else { return }
        }
        XCTAssertEqual(problems.entries, [], file: file, line: line)
    }

    func testDisposeReturnsOnlyAfterACompletedCallbackRunningOnAnotherThreadHasReturned() {
        assertDisposeWaitsForATerminalCallback(sendingError: false)
    }

    func testDisposeReturnsOnlyAfterAnErrorCallbackRunningOnAnotherThreadHasReturned() {
        assertDisposeWaitsForATerminalCallback(sendingError: true)
    }

    /// The other half of the same guarantee: the wait never applies to the callback's own thread.
    func testDisposeCalledFromInsideItsOwnCompletedCallbackReturnsAtOnce() {
        let subscribed = DispatchSemaphore(value: 0)
        let disposeReturned = DispatchSemaphore(value: 0)
        let slot = Mutex<(any Disposable)?>(nil)
        let signal = Signal<Int, Never> { observer -> (any Disposable)? in
            startThread {
                subscribed.wait()
                observer.sendCompleted()
            }
            return nil
        }
        let subscription = signal.subscribe(completed: {
            let own = slot.withLock { $0 }
            own?.dispose()
            disposeReturned.signal()
        })
        slot.withLock { $0 = subscription }
        subscribed.signal()
        waitOrFail(disposeReturned, "dispose() from inside the subscription's own completed callback")
        XCTAssertTrue(subscription.isDisposed)
    }

    // MARK: 5 — a second concurrent dispose of a CompositeDisposable

    func testConcurrentSecondDisposesOfACompositeReturnOnlyAfterItsChildrenAreDisposed() {
        let problems = ProblemLog()
        for round in 0..<StressScale.scaled(10) {
            let childStarted = DispatchSemaphore(value: 0)
            let childDisposed = Flag()
            let composite = CompositeDisposable()
            composite.add(AnyDisposable {})
            composite.add(
                AnyDisposable {
                    childStarted.signal()
                    usleep(50_000)
                    childDisposed.raise()
                })
            let firstReturned = startThread { composite.dispose() }
            guard waitOrFail(childStarted, "the first dispose() reaching the slow child") else { return }
            // While the first disposer is inside the slow child, three more dispose at once.
            let finished = runThreads(3, timeout: 30) { index in
                composite.dispose()
                if !childDisposed.isRaised {
                    problems.add("round \(round), disposer \(index): returned before the children were disposed")
                }
            }
            guard finished, waitOrFail(firstReturned, "the first dispose()") else { return }
            XCTAssertTrue(composite.isDisposed)
        }
        XCTAssertEqual(problems.entries, [])
    }

    // MARK: 6 — SerialDisposable.inner replaced on one thread while another reads it

    func testReadingSerialDisposableInnerWhileAnotherThreadKeepsReplacingItIsSafe() {
        let serial = SerialDisposable()
        let seconds = max(0.2, StressScale.factor)
        let deadline = Date().addingTimeInterval(seconds)
        let created = Atomic<Int>(0)
        let disposedCount = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let writerDone = Flag()
        runThreads(2, timeout: 60) { index in
            if index == 0 {
                // The writer: every replacement disposes the previous inner disposable.
                var count = 0
                while count % 1_024 != 0 || Date() < deadline {
                    serial.inner = AnyDisposable { disposedCount.add(1, ordering: .relaxed) }
                    count += 1
                }
                created.store(count, ordering: .relaxed)
                writerDone.raise()
            } else {
                // The reader: reads `inner` and uses what it got, as long as the writer runs.
                var count = 0
                while !writerDone.isRaised {
                    if let inner = serial.inner, !inner.isDisposed { count += 1 }
                }
                reads.store(count, ordering: .relaxed)
            }
        }
        let replaced = created.load(ordering: .relaxed) - 1
        XCTAssertEqual(disposedCount.load(ordering: .relaxed), replaced, "every replaced inner disposable was disposed")
        serial.dispose()
        XCTAssertEqual(disposedCount.load(ordering: .relaxed), replaced + 1, "dispose() disposed the last one")
        XCTAssertNil(serial.inner)
        XCTAssertGreaterThan(reads.load(ordering: .relaxed), 0)
    }
}
