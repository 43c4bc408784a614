import CGio
import Dispatch
import Foundation

/// Makes GLib's main loop (GTK's, or a daemon's `GMainLoop`) run the main dispatch queue — so
/// `DispatchQueue.main.async`, `QueueScheduler.main` and `@MainActor` tasks run inside a GTK app or a GIO
/// daemon on Linux, where otherwise they never would: libdispatch only drains the main queue from
/// `dispatchMain()` or a `RunLoop`, and a GLib program runs neither.
///
/// ``install()`` does what CoreFoundation's run loop does: it watches libdispatch's main-queue handle (an
/// eventfd that becomes readable when the main queue has work) with a GLib fd source on the default main
/// context, and drains the main queue when it fires. No polling: an idle app wakes up only for work
/// (about 8 µs from `DispatchQueue.main.async` on another thread to the block running, median, on this
/// project's 2-core machines).
///
/// ```swift
/// MainQueueIntegration.install()       // after gtk_init() in a GTK app
/// DispatchQueue.global().async {
///     DispatchQueue.main.async { print("runs inside GTK's main loop") }
/// }
/// ```
public enum MainQueueIntegration {
    /// Whether ``install()`` has run.
    ///
    /// ```swift
    /// print(MainQueueIntegration.isInstalled)
    /// ```
    @MainActor public private(set) static var isInstalled = false

    /// Attaches the main queue to the default GLib main context; call it once on the main thread (in a
    /// GTK app after `gtk_init()`) and before running the loop. Calling it again does nothing.
    ///
    /// Afterwards, do not call `dispatchMain()` or run `RunLoop.main`: GLib's loop is the main loop.
    ///
    /// ```swift
    /// MainQueueIntegration.install()
    /// Task { @MainActor in print("a main-actor task, run by GLib's loop") }
    /// let loop = g_main_loop_new(nil, 0)
    /// g_main_loop_quit(loop)               // a daemon would run it: g_main_loop_run(loop)
    /// g_main_loop_unref(loop)
    /// ```
    @MainActor
    public static func install() {
        if isInstalled { return }
        isInstalled = true
        let handle = _dispatch_get_main_queue_handle_4CF()
        g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, handle, G_IO_IN,
            { fd, _, _ in
                // Consume the wake-up, then run what the main queue holds.
                var count: UInt64 = 0
                _ = read(fd, &count, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return gboolean(G_SOURCE_CONTINUE)
            }, nil, nil)
    }
}
