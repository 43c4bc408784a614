import Synchronization

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
    public static var total: Int { liveResources.load(ordering: .acquiring) }

    /// Whether this build of the library counts (debug builds do).
    ///
    /// ```swift
    /// let before = ResourceCounter.total
    /// if ResourceCounter.isEnabled { XCTAssertEqual(ResourceCounter.total, before) }
    /// ```
    public static var isEnabled: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// Counts one object more. Not inlinable, so the library's build decides whether it counts.
    @usableFromInline
    static func increment() {
        #if DEBUG
            liveResources.add(1, ordering: .relaxed)
        #endif
    }

    /// Counts one object less.
    @usableFromInline
    static func decrement() {
        #if DEBUG
            liveResources.subtract(1, ordering: .releasing)
        #endif
    }
}

private let liveResources = Atomic<Int>(0)

/// A zero-size member that counts its owner in ``ResourceCounter``: one line
/// (`@usableFromInline let resourceToken = ResourceToken()`) covers every initializer and the
/// deinitializer of the class that holds it.
@frozen
@usableFromInline
package struct ResourceToken: ~Copyable {
    @inlinable
    package init() {
        ResourceCounter.increment()
    }

    deinit {
        ResourceCounter.decrement()
    }
}
