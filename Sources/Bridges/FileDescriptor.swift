import Dispatch
import Foundation
import Observable

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Signal where Value == Data, Failure == BridgeError {
    /// The bytes read from a file descriptor, chunk by chunk, until end of file (the byte side of RAC's
    /// `rac_textSignal`: a pipe, a socket, a terminal, a file).
    ///
    /// - End of file completes; a failing `read(2)` sends ``BridgeError/readFailed(fileDescriptor:errno:)``.
    /// - A descriptor that is not open sends ``BridgeError/invalidFileDescriptor(_:)`` at once.
    /// - The bridge reads a duplicate of `fileDescriptor` (`F_DUPFD_CLOEXEC`) on a thread of its own
    ///   (blocked in `poll(2)`), so you may close yours at any time. The duplicate is closed before the
    ///   terminal event is delivered, and before `dispose()` returns when you dispose from another thread:
    ///   a finished or disposed subscription holds no descriptor and no thread.
    /// - Be the only reader of the descriptor: a blocking descriptor drained by someone else between the
    ///   readiness event and the bridge's `read` would block the bridge's queue.
    ///
    /// Each subscription reads independently (two subscriptions compete for the same bytes).
    ///
    /// ```swift
    /// let pipe = Pipe()
    /// Signal.bytes(from: pipe.fileHandleForReading.fileDescriptor)
    ///     .subscribe(next: { print($0.count, "bytes") }, completed: { print("EOF") })
    /// pipe.fileHandleForWriting.write(Data("hello".utf8))
    /// try pipe.fileHandleForWriting.close()
    /// // 5 bytes
    /// // EOF
    /// ```
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to read; the signal does not close it.
    ///   - maxLength: the largest chunk sent, in bytes (positive, else ``BridgeError/invalidArgument(_:)``).
    public static func bytes(from fileDescriptor: Int32, maxLength: Int = 65_536) -> Signal {
        Signal { observer in
            guard maxLength > 0 else {
                observer.sendError(.invalidArgument("maxLength must be positive, got \(maxLength)"))
                return nil
            }
            let duplicate = fcntl(fileDescriptor, F_DUPFD_CLOEXEC, 0)
            guard duplicate >= 0 else {
                let code = errno
                observer.sendError(
                    code == EBADF
                        ? .invalidFileDescriptor(fileDescriptor)
                        : .systemCallFailed(call: "fcntl(F_DUPFD_CLOEXEC)", errno: code))
                return nil
            }
            return DescriptorReader.start(
                descriptor: duplicate, reported: fileDescriptor, maxLength: maxLength, observer: observer)
        }
    }
}

extension Signal where Value == String, Failure == BridgeError {
    /// The lines read from a file descriptor (a terminal's text input is Linux's `rac_textSignal`).
    ///
    /// Lines end at `"\n"` (a `"\r\n"` ending is removed too); the last line is sent even without a
    /// trailing newline. Bytes are decoded as UTF-8 per line, so a character split across reads is decoded
    /// whole; invalid UTF-8 becomes U+FFFD, never a crash. Errors and resource handling are those of
    /// ``bytes(from:maxLength:)-(Int32,_)``.
    ///
    /// ```swift
    /// Signal.lines(from: STDIN_FILENO)
    ///     .subscribe(next: { print("you typed:", $0) }, completed: { print("bye") })
    /// ```
    public static func lines(from fileDescriptor: Int32) -> Signal {
        Signal<Data, BridgeError>.bytes(from: fileDescriptor).lines()
    }
}

/// Reads one duplicated descriptor on its own thread and feeds an observer.
///
/// Why a thread and not a Dispatch read source: libdispatch's epoll backend on Linux misses the hang-up
/// of a pipe whose last bytes and end of file arrive together, and cancelling a read source at end of file
/// races with the (level-triggered) hang-up event: in a probe, 300 pipes read to end of file crashed
/// libdispatch's event loop with a use-after-free. A thread blocked in `poll(2)` on the descriptor and on a
/// wake-up pipe has neither problem and releases everything deterministically.
final class DescriptorReader: Disposable, @unchecked Sendable {
    // Safety: `descriptor`, `wakeRead` and the buffer are used only by the reader thread; `wakeWrite`,
    // `exited`, `reader` and `disposed` are guarded by `lock`; the rest is immutable or thread-safe.
    private let descriptor: Int32
    private let reported: Int32
    private let maxLength: Int
    private let observer: Observer<Data, BridgeError>
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var disposed = false
    private var exited = false
    private var reader: pthread_t?

    private init(
        descriptor: Int32, reported: Int32, maxLength: Int, observer: Observer<Data, BridgeError>,
        wake: (read: Int32, write: Int32)
    ) {
        self.descriptor = descriptor
        self.reported = reported
        self.maxLength = maxLength
        self.observer = observer
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
    }

    /// Starts reading `descriptor` (which the reader owns and closes) into `observer`.
    static func start(
        descriptor: Int32, reported: Int32, maxLength: Int, observer: Observer<Data, BridgeError>
    ) -> (any Disposable)? {
        var wake: [Int32] = [-1, -1]
        // pipe2(2) is not exported by Glibc's module map: set close-on-exec right after.
        guard pipe(&wake) == 0 else {
            let code = errno
            close(descriptor)
            observer.sendError(.systemCallFailed(call: "pipe", errno: code))
            return nil
        }
        _ = fcntl(wake[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(wake[1], F_SETFD, FD_CLOEXEC)
        let reader = DescriptorReader(
            descriptor: descriptor, reported: reported, maxLength: maxLength, observer: observer,
            wake: (wake[0], wake[1]))
        let thread = Thread { reader.run() }
        thread.stackSize = 1 << 20
        thread.start()
        return reader
    }

    private func run() {
        Thread.current.name = "tether-fd-\(reported)"  // Linux keeps 15 bytes of a thread name
        lock.withLock { reader = pthread_self() }
        var buffer = [UInt8](repeating: 0, count: maxLength)
        var terminal: Event<Data, BridgeError>?
        loop: while true {
            if lock.withLock({ disposed }) { break }
            var requests = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&requests, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                terminal = .error(.systemCallFailed(call: "poll", errno: errno))
                break
            }
            if requests[1].revents != 0 { break }
            if requests[0].revents == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            switch count {
            case 1...:
                observer.send(Data(buffer[0..<count]))
            case 0:
                terminal = .completed
                break loop
            default:
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                terminal = .error(.readFailed(fileDescriptor: reported, errno: code))
                break loop
            }
        }
        // Release every descriptor before the terminal event is delivered.
        close(descriptor)
        close(wakeRead)
        lock.withLock {
            exited = true
            close(wakeWrite)
        }
        finished.signal()
        if let terminal { observer.send(event: terminal) }
    }

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Stops the reader; from another thread, returns once its descriptors are closed.
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
