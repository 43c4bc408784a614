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
            let reader = DescriptorReader.start(
                descriptor: duplicate, threadName: "tether-fd-\(fileDescriptor)", maxLength: maxLength,
                onChunk: { chunk in observer.send(Data(chunk)) },
                onEnd: { end in
                    switch end {
                    case .endOfFile: observer.sendCompleted()
                    case .readFailed(let code):
                        observer.sendError(.readFailed(fileDescriptor: fileDescriptor, errno: code))
                    case .systemCallFailed(let call, let code):
                        observer.sendError(.systemCallFailed(call: call, errno: code))
                    }
                })
            switch reader {
            case .success(let reader): return reader
            case .failure(let failure):
                observer.sendError(.systemCallFailed(call: failure.call, errno: failure.errno))
                return nil
            }
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
