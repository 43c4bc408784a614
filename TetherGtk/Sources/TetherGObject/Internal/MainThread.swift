import CGio
import Foundation

/// Whether the caller runs on the process's main thread — GTK's thread, and the main actor's on Linux.
package var isOnMainThread: Bool { Thread.isMainThread }

/// Runs `body` on the main thread: at once when already there, otherwise through the default
/// `GMainContext`, which GTK's main loop runs.
package func onMainThread(_ body: @escaping @Sendable () -> Void) {
    if isOnMainThread {
        body()
    } else {
        MainContextScheduler.main.schedule(body)
    }
}
