import Foundation
import TetherGtk
import XCTest

/// The base of TetherGtk's tests: GTK initialized once (tests run under `xvfb-run -a`), helpers that
/// pump GLib's default main context, and a watchdog instead of timing assertions.
///
/// XCTest on Linux runs test methods on the main thread but crashes on `@MainActor func test…()`, so
/// tests are nonisolated and enter the main actor with `onMain { … }`.
class GtkTestCase: XCTestCase {
    /// Whether GTK could open a display; widget tests fail (not skip) when it could not.
    static let hasDisplay: Bool = MainActor.assumeIsolated {
        // Xvfb has no session bus: without this, GTK's accessibility support warns "Unable to acquire
        // session bus" (dbus-launch) at start. The tests do not use accessibility.
        setenv("GTK_A11Y", "none", 0)
        let ok = gtk_init_check() != 0
        if ok { MainQueueIntegration.install() }
        return ok
    }

    override func setUp() {
        super.setUp()
        XCTAssertTrue(Self.hasDisplay, "GTK could not open a display: run these tests under `xvfb-run -a swift test`")
        drainMainContext()
    }

    /// Runs `body` on the main actor (the test already runs on the main thread).
    func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
        try MainActor.assumeIsolated { try body() }
    }
}

/// Runs every GLib source that is ready now, without blocking.
func drainMainContext() {
    while g_main_context_iteration(nil, 0) != 0 {}
}

/// Runs GTK's main context until `condition` holds; fails after `watchdog` seconds (a hang turned into
/// a failure, not a timing assertion).
@discardableResult
func pump(
    until condition: () -> Bool, watchdog: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
) -> Bool {
    let deadline = Date().addingTimeInterval(watchdog)
    // Wake the blocking iteration up regularly so that the deadline is checked.
    let tick = g_timeout_add(20, { _ in 1 }, nil)
    defer { g_source_remove(tick) }
    while !condition() {
        if Date() > deadline {
            XCTFail("the condition did not hold within the \(watchdog) s watchdog", file: file, line: line)
            return false
        }
        g_main_context_iteration(nil, 1)
    }
    return true
}

/// A `GWeakRef` a test keeps on an object, to check that it was finalized.
final class TestWeakRef {
    let pointer = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)

    init(_ object: UnsafeMutablePointer<GObject>) {
        pointer.initialize(to: GWeakRef())
        g_weak_ref_init(pointer, object)
    }

    var isAlive: Bool {
        guard let strong = g_weak_ref_get(pointer) else { return false }
        g_object_unref(strong)
        return true
    }

    deinit {
        g_weak_ref_clear(pointer)
        pointer.deallocate()
    }
}

/// Counts GLib criticals and warnings from GObject while installed (a disconnection after finalization
/// is one).
final class GLibCriticalCounter {
    private var handlerIDs: [guint] = []
    private let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init() {
        count.initialize(to: 0)
        for domain in ["GLib-GObject", "GLib", "Gtk"] {
            handlerIDs.append(
                g_log_set_handler(
                    domain, GLogLevelFlags(rawValue: G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue),
                    { _, _, _, data in data!.assumingMemoryBound(to: Int.self).pointee += 1 }, count))
        }
    }

    var criticals: Int { count.pointee }

    deinit {
        for (domain, id) in zip(["GLib-GObject", "GLib", "Gtk"], handlerIDs) { g_log_remove_handler(domain, id) }
        count.deallocate()
    }
}

extension GObjectHandle {
    /// The object as a `GtkAdjustment *`.
    var adjustment: UnsafeMutablePointer<GtkAdjustment> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkAdjustment.self)
    }
}
