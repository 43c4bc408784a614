import Foundation
import TetherGio
import XCTest

// TetherGio's tests need no display: they never initialize GTK. Like TetherGtk's tests, they run on the
// main thread (XCTest on Linux), pump GLib's default main context themselves, and turn a hang into a
// failure with a watchdog instead of timing assertions.

/// Runs every GLib source of the default main context that is ready now, without blocking.
package func drainMainContext() {
    while g_main_context_iteration(nil, 0) != 0 {}
}

/// Runs the default main context until `condition` holds; fails after `watchdog` seconds (a hang turned
/// into a failure, not a timing assertion).
@discardableResult
package func pump(
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
