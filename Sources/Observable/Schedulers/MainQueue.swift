import TetherEngine

/// Whether the calling code runs on the main thread, or on the main queue (which, after
/// `dispatchMain()`, runs on another thread).
func isOnMainThread() -> Bool {
    QueueScheduler.main.isCurrent || isProcessMainThread()
}

/// Whether the caller runs on the main queue (or the main thread, which drains it in `dispatchMain`-less
/// programs and tests): where the main actor's work runs on Linux.
func isOnMainQueue() -> Bool {
    QueueScheduler.main.isCurrent || DebugThreadContext.current.isMainThread
}
