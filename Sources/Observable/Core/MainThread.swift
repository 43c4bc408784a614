import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the calling thread is the process's main thread: on Linux its thread id is the process id
/// (`/proc/thread-self` links to `PID/task/TID`).
func isProcessMainThread() -> Bool {
    #if canImport(Darwin)
        return pthread_main_np() != 0
    #else
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        let parts = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "/")
        return parts.count == 3 && parts[0] == parts[2]
    #endif
}
