import Foundation
import Observable
import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads one descriptor on a thread of its own and hands each chunk read to a closure: the reader of
/// `Signal.bytes(from:maxLength:)` (one per subscription) and of the file watches (one per inotify
/// instance, shared by every watch).
///
/// Why a thread and not a Dispatch read source: libdispatch's epoll backend on Linux misses the hang-up
/// of a pipe whose last bytes and end of file arrive together, and cancelling a read source at end of file
/// races with the (level-triggered) hang-up event: in a probe, 300 pipes read to end of file crashed
/// libdispatch's event loop with a use-after-free. A thread blocked in `poll(2)` on the descriptor and on a
/// wake-up pipe has neither problem and releases everything deterministically.
///
/// Chunks are handed over one at a time, on the reader thread, from a buffer the reader reuses: a handler
/// copies what it keeps. No lock is held while a handler runs.
final class DescriptorReader: Disposable, @unchecked Sendable {
    // Safety: `descriptor`, `wakeRead` and the buffer are used only by the reader thread; `wakeWrite`,
    // `exited`, `reader` and `disposed` are guarded by `lock`; the rest is immutable or thread-safe.

    /// Why the reader stopped on its own (a disposed reader reports nothing).
    enum End: Sendable {
        /// `read(2)` returned 0.
        case endOfFile
        /// `read(2)` failed with this `errno`.
        case readFailed(errno: Int32)
        /// Another call (`poll`) failed.
        case systemCallFailed(call: String, errno: Int32)
    }

    /// A call that failed while starting the reader.
    struct StartFailure: Error {
        let call: String
        let errno: Int32
    }

    private let descriptor: Int32
    private let threadName: String
    private let maxLength: Int
    private let onChunk: @Sendable (UnsafeRawBufferPointer) -> Void
    private let onEnd: @Sendable (End) -> Void
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var disposed = false
    private var exited = false
    private var reader: pthread_t?

    private init(
        descriptor: Int32, threadName: String, maxLength: Int,
        onChunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, onEnd: @escaping @Sendable (End) -> Void,
        wake: (read: Int32, write: Int32)
    ) {
        self.descriptor = descriptor
        self.threadName = threadName
        self.maxLength = maxLength
        self.onChunk = onChunk
        self.onEnd = onEnd
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
    }

    /// Starts reading `descriptor`, which the reader owns from now on (closed on every path, a failure to
    /// start included).
    ///
    /// - Parameters:
    ///   - threadName: the reader thread's name (Linux keeps 15 bytes).
    ///   - maxLength: the size of the read buffer.
    ///   - onChunk: called on the reader thread with each non-empty chunk read.
    ///   - onEnd: called on the reader thread when it stops on its own, after the descriptor is closed.
    static func start(
        descriptor: Int32, threadName: String, maxLength: Int,
        onChunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, onEnd: @escaping @Sendable (End) -> Void
    ) -> Result<DescriptorReader, StartFailure> {
        var wake: [Int32] = [-1, -1]
        // pipe2(2) is not exported by Glibc's module map: set close-on-exec right after.
        guard pipe(&wake) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(StartFailure(call: "pipe", errno: code))
        }
        _ = fcntl(wake[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(wake[1], F_SETFD, FD_CLOEXEC)
        let reader = DescriptorReader(
            descriptor: descriptor, threadName: threadName, maxLength: maxLength, onChunk: onChunk, onEnd: onEnd,
            wake: (wake[0], wake[1]))
        let thread = Thread { reader.run() }
        thread.stackSize = 1 << 20
        thread.start()
        return .success(reader)
    }

    private func run() {
        Thread.current.name = threadName
        lock.withLock { reader = pthread_self() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: maxLength, alignment: 16)
        defer { buffer.deallocate() }
        var end: End?
        loop: while true {
            if lock.withLock({ disposed }) { break }
            var requests = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&requests, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                end = .systemCallFailed(call: "poll", errno: errno)
                break
            }
            if requests[1].revents != 0 { break }
            if requests[0].revents == 0 { continue }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            switch count {
            case 1...:
                onChunk(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case 0:
                end = .endOfFile
                break loop
            default:
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                end = .readFailed(errno: code)
                break loop
            }
        }
        // Release every descriptor before the end is reported.
        close(descriptor)
        close(wakeRead)
        lock.withLock {
            exited = true
            close(wakeWrite)
        }
        finished.signal()
        if let end { onEnd(end) }
    }

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Stops the reader; from another thread, returns once its descriptors are closed (and so once a
    /// handler running on the reader thread has returned). From the reader thread itself (a handler), it
    /// returns at once and the reader stops after that handler.
    func dispose() {
        let onReader = lock.withLock { () -> Bool? in
            if disposed { return nil }
            disposed = true
            if !exited {
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
            return reader.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        guard let onReader, !onReader else { return }
        finished.wait()
        finished.signal()
    }
}
