import CGtk
import Foundation

/// Whether the caller runs on the process's main thread — GTK's thread, and the main actor's on Linux.
var isOnMainThread: Bool { Thread.isMainThread }

/// Runs `body` on the main thread: at once when already there, otherwise through the default
/// `GMainContext` (`g_main_context_invoke`), which GTK's main loop runs.
func onMainThread(_ body: @escaping @Sendable () -> Void) {
    if isOnMainThread {
        body()
        return
    }
    let box = Unmanaged.passRetained(MainThreadCall(body)).toOpaque()
    g_main_context_invoke_full(
        nil, G_PRIORITY_DEFAULT,
        { data in
            Unmanaged<MainThreadCall>.fromOpaque(data!).takeUnretainedValue().body()
            return gboolean(G_SOURCE_REMOVE)
        }, box,
        { data in Unmanaged<MainThreadCall>.fromOpaque(data!).release() })
}

private final class MainThreadCall {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
