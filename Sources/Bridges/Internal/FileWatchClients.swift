import Foundation
import Observable
import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a file watch's deliveries are coalesced: a window on a scheduler, or nothing (deliver at once).
struct FileWatchCoalescing: Sendable {
    let window: Duration
    let scheduler: any Scheduler

    /// A negative window counts as zero.
    init(window: Duration, scheduler: any Scheduler) {
        self.window = max(window, .zero)
        self.scheduler = scheduler
    }
}

extension Rerun {
    /// A watch's drain: its work (installed with ``Rerun/install(_:)``) runs serially — whoever finds it
    /// idle runs it, a request made meanwhile makes the runner go again — either at once or, with
    /// `coalescing`, once per window after the first request (``Rerun/request()``; ``Rerun/runNow()``
    /// runs at once either way).
    ///
    /// The work is never run twice at once and never under a lock, so a watch's deliveries are ordered with
    /// the reads that produced them. ``Rerun/dispose()`` cancels the window and releases the work.
    convenience init(coalescing: FileWatchCoalescing?) {
        guard let coalescing else {
            self.init(window: nil)
            return
        }
        self.init(window: { elapsed in
            let scheduled = coalescing.scheduler.schedule(after: coalescing.window, elapsed)
            return { scheduled.dispose() }
        })
    }
}

/// What a watch reports about a file or directory: the watched path, and, for a file, its name in the
/// watched directory.
struct WatchTarget: Sendable {
    /// The path as the user gave it.
    let path: String
    /// The directory watched: `path` itself, or the directory holding the file.
    let directory: String
    /// The file's name in `directory`; `nil` when `path` is the directory.
    let fileName: String?

    /// The path to show for an entry `name` of the watched directory.
    func path(of name: String) -> String {
        name == fileName ? path : join(directory, name)
    }

    /// Whether a notice about `name` concerns the target.
    func concerns(_ name: String) -> Bool {
        fileName == nil || name == fileName
    }

    /// Checks `path` and decides what to watch; `directoryOnly`/`fileOnly` reject the other kind.
    static func resolve(_ path: String, requireDirectory: Bool = false, requireFile: Bool = false)
        -> Result<WatchTarget, FileWatchError>
    {
        if path.isEmpty || path.utf8.contains(0) { return .failure(.invalidPath(path)) }
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(FileWatchError(errno: errno, path: path, call: "stat")) }
        let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
        if requireDirectory && !isDirectory { return .failure(.notADirectory(path)) }
        if requireFile && isDirectory { return .failure(.isADirectory(path)) }
        // `stat` follows links and opens nothing: a FIFO, socket or device is refused before anything could
        // block on it (readContents checks again on the descriptor it opens).
        if requireFile && (status.st_mode & S_IFMT) != S_IFREG { return .failure(.notARegularFile(path)) }
        if isDirectory { return .success(WatchTarget(path: path, directory: path, fileName: nil)) }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else {
            return .success(WatchTarget(path: path, directory: ".", fileName: trimmed))
        }
        let directory = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return .success(
            WatchTarget(path: path, directory: directory, fileName: String(trimmed[trimmed.index(after: slash)...])))
    }
}

/// The client of `Signal.fileEvents(at:)`: turns notices into ``FileEvent``s, sent at once from the reader
/// thread or coalesced and sent by the scheduler.
final class FileEventsClient: InotifyClient, @unchecked Sendable {
    // Safety: `batch` and `terminal` are guarded by `lock`; the rest is immutable or thread-safe.
    private let target: WatchTarget
    private let observer: Observer<FileEvent, FileWatchError>
    private let lock = Lock()
    private var batch: [FileEvent] = []
    private var terminal: Event<FileEvent, FileWatchError>?
    /// Present with coalescing (its work holds the client until it is disposed).
    let drain: Rerun?

    init(target: WatchTarget, observer: Observer<FileEvent, FileWatchError>, coalescing: FileWatchCoalescing?) {
        self.target = target
        self.observer = observer
        if coalescing == nil {
            drain = nil
        } else {
            let drain = Rerun(coalescing: coalescing)
            self.drain = drain
            drain.install { self.flush() }
        }
    }

    func receive(_ notice: InotifyNotice) {
        switch notice {
        case .entry(let change, let name):
            guard target.concerns(name), let event = event(for: change, name: name) else { return }
            emit(event)
        case .renamed(let from, let to):
            guard target.concerns(from) || target.concerns(to) else { return }
            emit(.moved(from: target.path(of: from), to: target.path(of: to)))
        case .attributesChanged:
            if target.fileName == nil { emit(.attributesChanged(target.path)) }
        case .directoryGone:
            if target.fileName == nil { emit(.deleted(target.path)) }
            finish(.completed)
        case .ended:
            finish(.completed)
        case .overflow:
            finish(.error(.eventQueueOverflow(target.path)))
        }
    }

    private func event(for change: InotifyNotice.EntryChange, name: String) -> FileEvent? {
        let path = target.path(of: name)
        switch change {
        case .created: return .created(path)
        case .modified: return .modified(path)
        case .closedAfterWriting: return nil
        case .attributesChanged: return .attributesChanged(path)
        case .deleted: return .deleted(path)
        case .movedOut(let to): return to.map { .moved(from: path, to: $0) } ?? .deleted(path)
        case .movedIn(let from): return from.map { .moved(from: $0, to: path) } ?? .created(path)
        }
    }

    private func emit(_ event: FileEvent) {
        guard let drain else { return observer.send(event) }
        lock.withLock { if terminal == nil { batch.append(event) } }
        drain.request()
    }

    private func finish(_ event: Event<FileEvent, FileWatchError>) {
        guard let drain else { return observer.send(event: event) }
        lock.withLock { if terminal == nil { terminal = event } }
        drain.request()
    }

    /// Sends the batch, coalesced, then the terminal event if one came.
    private func flush() {
        let (events, end) = lock.withLock { () -> ([FileEvent], Event<FileEvent, FileWatchError>?) in
            defer { batch = [] }
            return (batch, terminal)
        }
        for event in coalesce(events) { observer.send(event) }
        if let end { observer.send(event: end) }
    }
}

/// Merges the events of one window, path by path: repeated `modified` or `attributesChanged` events of a
/// path become the first; those following a `created` of the path are dropped (the creation covers them);
/// a path created and deleted within the window disappears altogether. `deleted`, `created` and `moved`
/// events are kept in order otherwise.
func coalesce(_ events: [FileEvent]) -> [FileEvent] {
    struct PathState {
        var created: Int?
        var modified = false
        var attributes = false
        var indices: [Int] = []
    }
    var output: [FileEvent?] = []
    var states: [String: PathState] = [:]
    for event in events {
        switch event {
        case .created(let path):
            states[path] = PathState(created: output.count, indices: [output.count])
            output.append(event)
        case .modified(let path):
            var state = states[path] ?? PathState()
            if state.created != nil || state.modified { continue }
            state.modified = true
            state.indices.append(output.count)
            states[path] = state
            output.append(event)
        case .attributesChanged(let path):
            var state = states[path] ?? PathState()
            if state.created != nil || state.attributes { continue }
            state.attributes = true
            state.indices.append(output.count)
            states[path] = state
            output.append(event)
        case .deleted(let path):
            if let state = states[path], state.created != nil {
                for index in state.indices { output[index] = nil }
                states[path] = nil
                continue
            }
            states[path] = PathState()
            output.append(event)
        case .moved(let from, let to):
            states[from] = PathState()
            states[to] = PathState()
            output.append(event)
        }
    }
    return output.compactMap { $0 }
}

/// What reading a watched value gave.
enum WatchedRead<Value: Sendable>: Sendable {
    case value(Value)
    /// The file or directory is not there (now): nothing is sent.
    case missing
    case failed(FileWatchError)
}

/// The client of `Signal.fileContents(at:)` and `Signal.directoryEntries(at:)`: re-reads the value after
/// each relevant change (or once per window) and sends it when it differs from the last one sent.
final class WatchedValueClient<Value: Equatable & Sendable>: InotifyClient, @unchecked Sendable {
    // Safety: `last` and `finished` are guarded by `lock`; `last` is read and written only by the drain's
    // runner (one at a time); the rest is immutable or thread-safe.
    private let target: WatchTarget
    private let observer: Observer<Value, FileWatchError>
    private let read: @Sendable () -> WatchedRead<Value>
    private let isRelevant: @Sendable (InotifyNotice, WatchTarget) -> Bool
    private let lock = Lock()
    private var last: Value?
    private var finished = false
    /// Its work holds the client until it is disposed.
    let drain: Rerun

    init(
        target: WatchTarget, observer: Observer<Value, FileWatchError>, coalescing: FileWatchCoalescing?,
        read: @escaping @Sendable () -> WatchedRead<Value>,
        isRelevant: @escaping @Sendable (InotifyNotice, WatchTarget) -> Bool
    ) {
        self.target = target
        self.observer = observer
        self.read = read
        self.isRelevant = isRelevant
        drain = Rerun(coalescing: coalescing)
        drain.install { self.refresh() }
    }

    func receive(_ notice: InotifyNotice) {
        switch notice {
        case .directoryGone, .ended:
            lock.withLock { finished = true }
            drain.runNow()
        case .overflow:
            drain.request()
        default:
            if isRelevant(notice, target) { drain.request() }
        }
    }

    /// Reads the value and sends it if it changed; then completes if the watch ended.
    private func refresh() {
        if lock.withLock({ finished }) { return observer.sendCompleted() }
        switch read() {
        case .value(let value):
            let changed = lock.withLock { () -> Bool in
                if last == value { return false }
                last = value
                return true
            }
            if changed { observer.send(value) }
        case .missing:
            break
        case .failed(let error):
            observer.sendError(error)
        }
    }
}

/// The contents of the regular file at `path`, at most `limit` bytes.
///
/// Nothing here can block the reader thread every watch shares: the file is opened with `O_NONBLOCK`
/// (a FIFO with no writer opens at once instead of waiting for one), and anything `fstat` does not call a
/// regular file — a FIFO, a socket, a device such as `/dev/zero`, also behind a symbolic link — is
/// ``FileWatchError/notARegularFile(_:)`` before a byte is read. A file larger than `limit`, or growing
/// past it while it is read, is ``FileWatchError/fileTooLarge(path:size:limit:)``.
func readContents(of path: String, limit: Int = Signal<Data, FileWatchError>.maximumFileContentsSize)
    -> WatchedRead<Data>
{
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else {
        let code = errno
        return code == ENOENT ? .missing : .failed(FileWatchError(errno: code, path: path, call: "open"))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failed(.readFailed(path: path, errno: errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return .failed(.isADirectory(path))
    default: return .failed(.notARegularFile(path))
    }
    if status.st_size > limit { return .failed(.fileTooLarge(path: path, size: Int(status.st_size), limit: limit)) }
    var contents = Data()
    contents.reserveCapacity(Int(status.st_size))
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        // One byte past the limit is enough to know the file grew beyond it.
        let wanted = min(buffer.count, limit + 1 - contents.count)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
        if count > 0 {
            contents.append(contentsOf: buffer[0..<count])
            if contents.count > limit {
                return .failed(.fileTooLarge(path: path, size: contents.count, limit: limit))
            }
        } else if count == 0 {
            return .value(contents)
        } else if errno != EINTR {
            return .failed(.readFailed(path: path, errno: errno))
        }
    }
}

/// The names in the directory at `path`, sorted, without `.` and `..`.
func readEntries(of path: String) -> WatchedRead<[String]> {
    guard let directory = opendir(path) else {
        let code = errno
        return code == ENOENT ? .missing : .failed(FileWatchError(errno: code, path: path, call: "opendir"))
    }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
        errno = 0
        guard let entry = readdir(directory) else {
            if errno != 0 { return .failed(.readFailed(path: path, errno: errno)) }
            break
        }
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return .value(names.sorted())
}
