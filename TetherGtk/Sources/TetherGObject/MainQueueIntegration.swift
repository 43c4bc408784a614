import CGio
import Dispatch
import Foundation
import Synchronization

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
/// TetherGObject, TetherGio and TetherGtk install it themselves as soon as a program makes something that
/// lives on the default main context — a ``MainContextScheduler/main`` scheduler, a ``GObjectHandle``, a
/// `GSettingsHandle`, a `DBusConnection`, a network or volume monitor — so a program need not call
/// ``install()``; calling it is harmless (and says what the program relies on). A program that drives
/// GLib's default context on another thread than the main one is told once, on standard error, that the
/// main queue cannot run there.
///
/// ```swift
/// MainQueueIntegration.install()       // after gtk_init() in a GTK app (or let TetherGtk do it)
/// DispatchQueue.global().async {
///     DispatchQueue.main.async { print("runs inside GTK's main loop") }
/// }
/// ```
public enum MainQueueIntegration {
    /// Whether the main queue is attached to the default GLib main context (by ``install()``, or by
    /// TetherGObject, TetherGio or TetherGtk on their own).
    ///
    /// ```swift
    /// print(MainQueueIntegration.isInstalled)
    /// ```
    public static var isInstalled: Bool { state.installed.load(ordering: .acquiring) }

    /// Attaches the main queue to the default GLib main context, so GLib's loop on the main thread runs
    /// it; call it before running the loop, from any thread (in a Swift 5 mode `main.swift` too). Calling
    /// it again does nothing.
    ///
    /// Called on the main thread, it attaches at once. Called on another thread, it attaches when the main
    /// thread next runs the default context (an idle source does it there), since only the main thread may
    /// drain the main queue — and a program that called `dispatchMain()` has no main thread left.
    ///
    /// Afterwards, do not call `dispatchMain()`: GLib's loop is the main loop. (`RunLoop.main`, which
    /// XCTest's `wait(for:)` turns, drains the same queue through the same handle; both can run.)
    ///
    /// ```swift
    /// MainQueueIntegration.install()
    /// Task { @MainActor in print("a main-actor task, run by GLib's loop") }
    /// let loop = g_main_loop_new(nil, 0)
    /// g_main_loop_quit(loop)               // a daemon would run it: g_main_loop_run(loop)
    /// g_main_loop_unref(loop)
    /// ```
    public static func install() {
        if isInstalled { return }
        if Thread.isMainThread {
            attachOnMainThread()
        } else if state.deferred.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
            .exchanged
        {
            // The default context's owner runs this; on the main thread, that attaches the integration.
            g_idle_add_full(
                G_PRIORITY_DEFAULT,
                { _ in
                    if Thread.isMainThread {
                        MainQueueIntegration.attachOnMainThread()
                    } else {
                        MainQueueIntegration.warnOffMainThread()
                    }
                    return gboolean(G_SOURCE_REMOVE)
                }, nil, nil)
        }
    }

    private static let state = State()

    private final class State: Sendable {
        let installed = Atomic(false)
        let deferred = Atomic(false)
        let warned = Atomic(false)
    }

    /// Attaches the fd source (on the main thread, once).
    private static func attachOnMainThread() {
        guard
            state.installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        let handle = _dispatch_get_main_queue_handle_4CF()
        g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, handle, G_IO_IN,
            { fd, _, _ in
                // Only the main thread may drain the main queue: a program that iterates the default
                // context elsewhere is told so, once, and the source goes (it would fire for ever).
                guard Thread.isMainThread else {
                    MainQueueIntegration.warnOffMainThread()
                    return gboolean(G_SOURCE_REMOVE)
                }
                // Consume the wake-up, then run what the main queue holds.
                var count: UInt64 = 0
                _ = read(fd, &count, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return gboolean(G_SOURCE_CONTINUE)
            }, nil, nil)
    }

    /// The one warning for a program whose default main context runs on another thread.
    private static func warnOffMainThread() {
        guard state.warned.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            return
        }
        FileHandle.standardError.write(
            Data(
                ("TetherGio: GLib's default main context is running on a thread other than the main thread, "
                    + "so the main dispatch queue (DispatchQueue.main, @MainActor, QueueScheduler.main) cannot "
                    + "run in it: run the loop (g_main_loop_run, GTK's loop) on the main thread.\n").utf8))
    }
}
