import Observable
import Synchronization
import TetherTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The inputs an operator reads before it makes its signal are kept per thread, and a process-wide count of
/// the threads holding some lets every other signal made skip the thread-local lookup.
final class PendingInputsTests: DebugTestCase {
    func testInputsPendingOnOneThreadSurviveAnotherThreadTakingItsOwn() {
        let a = Subject<Int, Never>().named("a")
        let pending = a.signal  // the input of the next signal made on this thread
        let otherDescription = Mutex("")
        let other = startThread {
            let mapped = Subject<Int, Never>().named("b").map { $0 }  // noted and taken on that thread
            otherDescription.withLock { $0 = mapped.description }
        }
        waitOrFail(other, "the other thread's pipeline")
        XCTAssertEqual(otherDescription.withLock { $0 }, "b.map", "a thread takes only its own inputs")
        let made = Signal<Int, Never>(unsafeStart: { _, _ in }, function: "probe(_:)")
        XCTAssertEqual(made.description, "a.probe")
        withExtendedLifetime(pending) {}
    }

    func testTakingTheInputsLeavesNoThreadCounted() {
        let before = TetherDebug.threadsWithPendingInputsForTesting
        let named = Subject<Int, Never>().named("source")
        _ = named.signal
        XCTAssertEqual(TetherDebug.threadsWithPendingInputsForTesting, before + 1)
        _ = named.signal  // a second read: still one thread
        XCTAssertEqual(TetherDebug.threadsWithPendingInputsForTesting, before + 1)
        let mapped = named.map { $0 + 1 }
        XCTAssertEqual(mapped.description, "source.map")
        XCTAssertEqual(TetherDebug.threadsWithPendingInputsForTesting, before)
    }

    func testResettingTheToolsForgetsThisThreadsPendingInputs() {
        let before = TetherDebug.threadsWithPendingInputsForTesting
        _ = Subject<Int, Never>().named("source").signal
        TetherDebug.resetForTesting()
        XCTAssertEqual(TetherDebug.threadsWithPendingInputsForTesting, before)
    }

    #if canImport(Glibc)
        func testAThreadThatEndsWithInputsPendingNoLongerCounts() {
            _ = Subject<Int, Never>().named("warm-up")  // names on before the thread starts
            let before = TetherDebug.threadsWithPendingInputsForTesting
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { _ in
                    _ = Subject<Int, Never>().named("left behind").signal  // read, never taken
                    return nil
                }, nil)
            XCTAssertEqual(status, 0)
            // Joined: the thread's context is released (and uncounted) as the thread exits.
            XCTAssertEqual(pthread_join(thread, nil), 0)
            XCTAssertEqual(TetherDebug.threadsWithPendingInputsForTesting, before)
        }
    #endif
}
