import Foundation
import TetherGioTestSupport
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
