#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a file watch (`Signal.fileEvents(at:)`, `Signal.fileContents(at:)`, `Signal.directoryEntries(at:)`)
/// failed: a typed error event, never a crash.
///
/// ```swift
/// Signal.fileEvents(at: "/no/such/dir").subscribe(error: { print($0) })
/// // no such file or directory: /no/such/dir
/// ```
public enum FileWatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path, or a directory on the way to it, does not exist (`ENOENT`, `ENOTDIR` on the way).
    ///
    /// ```swift
    /// Signal.fileContents(at: "/etc/no-such.conf")   // error(noSuchPath("/etc/no-such.conf"))
    /// ```
    case noSuchPath(String)
    /// The process may not read or search the path (`EACCES`, `EPERM`): inotify needs read permission on
    /// the watched directory, reading contents needs it on the file.
    ///
    /// ```swift
    /// // as a user who may not enter /root:
    /// Signal.directoryEntries(at: "/root")   // error(permissionDenied("/root"))
    /// ```
    case permissionDenied(String)
    /// The path names a file where a directory is needed (`Signal.directoryEntries(at:)`).
    ///
    /// ```swift
    /// Signal.directoryEntries(at: "/etc/hostname")   // error(notADirectory("/etc/hostname"))
    /// ```
    case notADirectory(String)
    /// The path names a directory where a file is needed (`Signal.fileContents(at:)`).
    ///
    /// ```swift
    /// Signal.fileContents(at: "/etc")   // error(isADirectory("/etc"))
    /// ```
    case isADirectory(String)
    /// The path names something that is neither a regular file nor a directory — a FIFO (named pipe), a
    /// socket, a character or block device such as `/dev/zero`, directly or through a symbolic link —
    /// where `Signal.fileContents(at:)` needs a regular file. It is checked without blocking (the file is
    /// opened with `O_NONBLOCK`, then `fstat`), so a FIFO with no writer cannot hold the watch up; the same
    /// error ends the watch when such a file later replaces the watched one.
    ///
    /// ```swift
    /// Signal.fileContents(at: "/dev/zero")   // error(notARegularFile("/dev/zero"))
    /// ```
    case notARegularFile(String)
    /// The file is larger than the most `Signal.fileContents(at:)` reads
    /// (`Signal.maximumFileContentsSize`, 64 MiB), when subscribing or at a later re-read; `size` is
    /// what was seen (at least `limit + 1` for a file that grew while it was read).
    ///
    /// ```swift
    /// print(FileWatchError.fileTooLarge(path: "/var/log/huge.log", size: 100_000_000, limit: 67_108_864))
    /// // /var/log/huge.log is too large to read as a value: 100000000 bytes (the limit is 67108864)
    /// ```
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The path is empty or contains a NUL byte.
    ///
    /// ```swift
    /// Signal.fileEvents(at: "")   // error(invalidPath(""))
    /// ```
    case invalidPath(String)
    /// The user's inotify watches are used up (`ENOSPC` from `inotify_add_watch`): raise
    /// `fs.inotify.max_user_watches` (`sysctl fs.inotify.max_user_watches=524288`) or watch fewer
    /// directories. Every process of the user shares the limit.
    ///
    /// ```swift
    /// print(FileWatchError.watchLimitReached("/srv/data"))
    /// // cannot watch /srv/data: the inotify watch limit is reached (raise fs.inotify.max_user_watches)
    /// ```
    case watchLimitReached(String)
    /// The user's inotify instances are used up (`EMFILE` from `inotify_init1`): raise
    /// `fs.inotify.max_user_instances`. Tether itself uses one instance per process, shared by every watch.
    ///
    /// ```swift
    /// print(FileWatchError.instanceLimitReached)
    /// ```
    case instanceLimitReached
    /// The kernel's event queue overflowed (`IN_Q_OVERFLOW`): events were lost, for every watch of the
    /// process, because they were not read fast enough (the queue holds `fs.inotify.max_queued_events`).
    /// Only `Signal.fileEvents(at:)` fails with it; the value signals (contents, entries) re-read instead.
    /// Rescan what you track, then subscribe again (`retry()`).
    ///
    /// ```swift
    /// print(FileWatchError.eventQueueOverflow("/srv/spool"))
    /// ```
    case eventQueueOverflow(String)
    /// Reading a watched file or directory failed with `errno`.
    ///
    /// ```swift
    /// print(FileWatchError.readFailed(path: "/srv/app.conf", errno: EIO))
    /// ```
    case readFailed(path: String, errno: Int32)
    /// Another system call failed with `errno`.
    ///
    /// ```swift
    /// print(FileWatchError.systemCallFailed(call: "inotify_init1", errno: ENOMEM))
    /// ```
    case systemCallFailed(call: String, errno: Int32)

    /// The error `inotify_add_watch(2)` or `open(2)`/`stat(2)` of `path` gives for `code`.
    ///
    /// ```swift
    /// FileWatchError(errno: ENOSPC, path: "/srv")   // .watchLimitReached("/srv")
    /// ```
    public init(errno code: Int32, path: String, call: String = "inotify_add_watch") {
        switch code {
        case ENOENT, ENOTDIR: self = .noSuchPath(path)
        case EACCES, EPERM: self = .permissionDenied(path)
        case ENOSPC: self = .watchLimitReached(path)
        case EISDIR: self = .isADirectory(path)
        case ENXIO: self = .notARegularFile(path)
        default: self = .systemCallFailed(call: call, errno: code)
        }
    }

    /// A readable explanation, with the system's text for `errno` values and the setting to raise for a limit.
    ///
    /// ```swift
    /// print(FileWatchError.noSuchPath("/tmp/gone"))   // no such file or directory: /tmp/gone
    /// ```
    public var description: String {
        switch self {
        case .noSuchPath(let path): "no such file or directory: \(path)"
        case .permissionDenied(let path): "permission denied: \(path)"
        case .notADirectory(let path): "not a directory: \(path)"
        case .isADirectory(let path): "is a directory: \(path)"
        case .notARegularFile(let path): "not a regular file (a FIFO, socket or device): \(path)"
        case .fileTooLarge(let path, let size, let limit):
            "\(path) is too large to read as a value: \(size) bytes (the limit is \(limit))"
        case .invalidPath(let path): "invalid path: \(path.debugDescription)"
        case .watchLimitReached(let path):
            "cannot watch \(path): the inotify watch limit is reached (raise fs.inotify.max_user_watches)"
        case .instanceLimitReached:
            "cannot create an inotify instance: the limit is reached (raise fs.inotify.max_user_instances)"
        case .eventQueueOverflow(let path):
            "inotify event queue overflowed while watching \(path): events were lost "
                + "(the queue holds fs.inotify.max_queued_events)"
        case .readFailed(let path, let code): "reading \(path) failed: \(errnoText(code))"
        case .systemCallFailed(let call, let code): "\(call) failed: \(errnoText(code))"
        }
    }
}
