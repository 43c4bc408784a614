import Foundation
import Observable
import TetherEngine
import XCTest

/// An XCTest case that checks, after every test, that `ResourceCounter.total` is back where it was
/// when the test started: every Tether object the test's pipelines allocated was freed (nothing
/// leaked through a reference cycle, nothing is still subscribed).
///
/// Work still in flight on other threads (a `QueueScheduler` action finishing) may release its
/// objects a moment after the test returns, so the check waits up to two seconds for the count to
/// come back before failing. Keep test state in locals, not in properties of the test case
/// (XCTest keeps test case instances alive for the whole run). In a release build the library does
/// not count, and the check does nothing.
///
/// <!-- example: top-level -->
/// ```swift
/// import Observable
/// import TetherTesting
/// import XCTest
///
/// nonisolated final class PipelineTests: ResourceCheckedTestCase {
///     func testMapReleasesItsSubscription() {
///         let subject = Subject<Int, Never>()
///         let recorder = subject.map { $0 * 2 }.record()
///         subject.send(1)
///         subject.sendCompleted()
///         XCTAssertEqual(recorder.values, [2])
///     }   // fails here if the pipeline were still alive
/// }
/// ```
open class ResourceCheckedTestCase: XCTestCase {
    private var resourcesAtStart = 0
    private var liveSubscriptionsReason: String?

    /// Notes the number of live Tether objects; call `super.setUp()` first when you override it.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import TetherTesting
    ///
    /// nonisolated final class SetUpTests: ResourceCheckedTestCase {
    ///     override func setUp() {
    ///         super.setUp()
    ///     }
    /// }
    /// ```
    open override func setUp() {
        super.setUp()
        resourcesAtStart = ResourceCounter.total
        liveSubscriptionsReason = nil
    }

    /// Checks that the number of live Tether objects is back to what it was in ``setUp()`` (unless the
    /// test called ``expectLiveSubscriptions(_:)``); call `super.tearDown()` last when you override it.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import TetherTesting
    ///
    /// nonisolated final class TearDownTests: ResourceCheckedTestCase {
    ///     override func tearDown() {
    ///         super.tearDown()
    ///     }
    /// }
    /// ```
    open override func tearDown() {
        if liveSubscriptionsReason == nil { assertResourcesReturn(to: resourcesAtStart) }
        super.tearDown()
    }

    /// Skips this test's leak check: its subscriptions deliberately outlive it — an observer closure
    /// that captures its own subject or observed object (a reference cycle of the test's making), a
    /// source that keeps its observer forever, a timer on a `TestScheduler` that is never disposed.
    ///
    /// <!-- example: top-level -->
    /// ```swift
    /// import Observable
    /// import TetherTesting
    ///
    /// nonisolated final class TimerTests: ResourceCheckedTestCase {
    ///     func testTimerKeepsTicking() {
    ///         expectLiveSubscriptions("the timer runs until the scheduler is released")
    ///         let scheduler = TestScheduler()
    ///         _ = Signal<Int, Never>.interval(.seconds(1), on: scheduler).record(on: scheduler)
    ///     }
    /// }
    /// ```
    public func expectLiveSubscriptions(_ reason: String) {
        liveSubscriptionsReason = reason
    }
}

/// Waits (up to `timeout`) for ``ResourceCounter/total`` to come back to `start`, and fails if it
/// does not. Does nothing when the library does not count (a release build).
package func assertResourcesReturn(
    to start: Int, timeout: TimeInterval = 2, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard ResourceCounter.isEnabled else { return }
    let deadline = Date().addingTimeInterval(timeout)
    while ResourceCounter.total != start && Date() < deadline {
        usleep(1_000)
    }
    let leaked = ResourceCounter.total - start
    XCTAssertEqual(
        leaked, 0, "ResourceCounter: \(leaked) Tether object(s) still alive \(message())", file: file, line: line)
}
