import TetherEngine

/// The number of Tether's live per-subscription objects, for leak checks in your own tests
/// (RxSwift's `Resources.total`).
///
/// A debug build of the library counts every object a subscription allocates — observers and
/// their gates, subject entries, subject cores, composite disposables, mailboxes, flattening
/// coordinators, delivery queues — while it is alive. When every pipeline a test built has completed
/// or been disposed and everything it captured was released, `total` is back where it started.
/// A release build of the library counts nothing (`total` stays `0`, ``isEnabled`` is `false`) and
/// pays one empty call per object created and destroyed.
///
/// ```swift
/// nonisolated final class SearchTests: XCTestCase {
///     var before = 0
///     override func setUp() { before = ResourceCounter.total }
///     override func tearDown() {
///         if ResourceCounter.isEnabled { XCTAssertEqual(ResourceCounter.total, before, "leaked") }
///     }
/// }
/// ```
///
/// Work still queued on a `QueueScheduler` holds its objects until it has run: wait for it (or
/// poll `total` for a moment) before comparing. The counter is global: compare it only while no
/// other test runs (XCTest runs tests one after the other).
public enum ResourceCounter {
    /// The number of live objects counted (always `0` in a release build of the library).
    ///
    /// ```swift
    /// let subject = Subject<Int, Never>()
    /// let before = ResourceCounter.total
    /// subject.map { $0 + 1 }.subscribe(next: { print($0) }).dispose()
    /// assert(ResourceCounter.total == before)
    /// ```
    public static var total: Int { LiveResources.total }

    /// Whether this build of the library counts (debug builds do).
    ///
    /// ```swift
    /// let before = ResourceCounter.total
    /// if ResourceCounter.isEnabled { XCTAssertEqual(ResourceCounter.total, before) }
    /// ```
    public static var isEnabled: Bool { LiveResources.isEnabled }
}
