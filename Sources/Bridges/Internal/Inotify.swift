import Foundation
import Observable
import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a watch's client hears about its directory, already decoded and with the halves of a rename paired.
enum InotifyNotice: Sendable {
    /// An entry of the directory changed; `name` is its name in the directory.
    case entry(EntryChange, name: String)
    /// An entry was renamed inside the directory (a paired `IN_MOVED_FROM`/`IN_MOVED_TO` of one watch).
    case renamed(from: String, to: String)
    /// The directory's own attributes changed.
    case attributesChanged
    /// The directory itself was deleted or moved away: its path no longer names it.
    case directoryGone
    /// The kernel dropped the watch (`IN_IGNORED`): nothing more will come.
    case ended
    /// The instance's event queue overflowed: events of every watch were lost.
    case overflow

    /// The kind of change to an entry.
    enum EntryChange: Sendable {
        case created
        case modified
        /// A writer closed the file (`IN_CLOSE_WRITE`): what the value signals re-read on.
        case closedAfterWriting
        case attributesChanged
        case deleted
        /// Moved out; `to` is the full new path when another watch of the instance saw it arrive.
        case movedOut(to: String?)
        /// Moved in; `from` is the full old path when another watch of the instance saw it leave.
        case movedIn(from: String?)
    }
}

/// Hears the notices of one watched directory, on the inotify reader thread. No lock is held while it runs.
protocol InotifyClient: AnyObject, Sendable {
    func receive(_ notice: InotifyNotice)
}

/// The process's inotify watches: one inotify instance shared by every watch, read by one
/// ``DescriptorReader`` thread, created on the first watch and closed (descriptor and thread) when the last
/// watch is removed.
///
/// Every watch is on a directory (a file is watched through its directory, so that a file replaced by a
/// rename — an editor's atomic save — is still followed). Watches of the same directory share the kernel's
/// watch descriptor; it is removed (`inotify_rm_watch`) when its last client goes.
final class Inotify: @unchecked Sendable {
    // Safety: `instance` and every instance's `watches` are guarded by `lock`, which is never held while a
    // client runs; the pairing state of an instance is used only by its reader thread.
    static let shared = Inotify()

    /// Everything a watch needs, the same for every watch (`inotify_add_watch` replaces a directory's mask).
    static let mask: UInt32 =
        UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    /// How long a rename's first half waits for its second when a read ended between them.
    static let pairingGraceMilliseconds: Int32 = 50

    private let lock = Lock()
    private var instance: Instance?

    /// One registration: removing it is idempotent.
    final class Watch: Disposable, @unchecked Sendable {
        // Safety: `removed` is guarded by `lock`; the rest is immutable.
        fileprivate let instance: Instance
        fileprivate let descriptor: Int32
        fileprivate let client: any InotifyClient
        private let lock = Lock()
        private var removed = false

        fileprivate init(instance: Instance, descriptor: Int32, client: any InotifyClient) {
            self.instance = instance
            self.descriptor = descriptor
            self.client = client
        }

        var isDisposed: Bool { lock.withLock { removed } }

        /// Removes the watch; the last one closes the instance (waiting for its reader thread, unless called
        /// on it).
        func dispose() {
            let first = lock.withLock { () -> Bool in
                defer { removed = true }
                return !removed
            }
            if first { Inotify.shared.remove(self) }
        }
    }

    /// Watches `directory` for `client`.
    func watch(directory: String, for client: any InotifyClient) -> Result<Watch, FileWatchError> {
        var unused: Instance?
        let result = lock.withLock { () -> Result<Watch, FileWatchError> in
            let current: Instance
            if let instance {
                current = instance
            } else {
                switch Instance.open() {
                case .success(let opened):
                    current = opened
                    instance = opened
                case .failure(let error): return .failure(error)
                }
            }
            let descriptor = inotify_add_watch(current.descriptor, directory, Self.mask)
            guard descriptor >= 0 else {
                let code = errno
                if current.watches.isEmpty {
                    instance = nil
                    unused = current
                }
                return .failure(FileWatchError(errno: code, path: directory))
            }
            current.watches[descriptor, default: Instance.Directory(path: directory)].clients.append(client)
            return .success(Watch(instance: current, descriptor: descriptor, client: client))
        }
        unused?.close()
        return result
    }

    fileprivate func remove(_ watch: Watch) {
        let closing = lock.withLock { () -> Instance? in
            let instance = watch.instance
            if var directory = instance.watches[watch.descriptor] {
                directory.clients.removeAll { $0 === watch.client }
                if directory.clients.isEmpty {
                    instance.watches[watch.descriptor] = nil
                    _ = inotify_rm_watch(instance.descriptor, watch.descriptor)
                } else {
                    instance.watches[watch.descriptor] = directory
                }
            }
            guard instance.watches.isEmpty, !instance.isClosing else { return nil }
            instance.isClosing = true
            if self.instance === instance { self.instance = nil }
            return instance
        }
        closing?.close()
    }

    /// Stops handing out `instance` (its reader ended).
    fileprivate func forget(_ instance: Instance) {
        lock.withLock {
            instance.isClosing = true
            if self.instance === instance { self.instance = nil }
        }
    }

    /// The clients of `descriptor` in `instance`, and the directory's path.
    fileprivate func directory(_ descriptor: Int32, of instance: Instance) -> Instance.Directory? {
        lock.withLock { instance.watches[descriptor] }
    }

    /// Every client of `instance`.
    fileprivate func allClients(of instance: Instance) -> [any InotifyClient] {
        lock.withLock { instance.watches.values.flatMap(\.clients) }
    }

    /// Forgets a watch the kernel dropped, and returns its clients.
    fileprivate func drop(_ descriptor: Int32, of instance: Instance) -> [any InotifyClient] {
        lock.withLock { instance.watches.removeValue(forKey: descriptor)?.clients ?? [] }
    }

    /// One inotify descriptor, its reader thread and its watches.
    fileprivate final class Instance: @unchecked Sendable {
        // Safety: `watches` and `isClosing` are guarded by `Inotify.lock`; `reader` is set once under it
        // before any other thread sees the instance, and released in `close()`; `pending` is used only by
        // the reader thread.
        struct Directory {
            let path: String
            var clients: [any InotifyClient] = []
        }

        let descriptor: Int32
        var watches: [Int32: Directory] = [:]
        var isClosing = false
        private var reader: DescriptorReader?
        /// A rename's `IN_MOVED_FROM` waiting for its `IN_MOVED_TO`: watch, name, cookie.
        private var pending: (descriptor: Int32, name: String, cookie: UInt32)?

        private init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        static func open() -> Result<Instance, FileWatchError> {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard descriptor >= 0 else {
                let code = errno
                return .failure(
                    code == EMFILE ? .instanceLimitReached : .systemCallFailed(call: "inotify_init1", errno: code))
            }
            let instance = Instance(descriptor: descriptor)
            // The reader owns the descriptor from now on. Unowned: the instance owns the reader, and its
            // thread ends in `close()` before the instance can go.
            let started = DescriptorReader.start(
                descriptor: descriptor, threadName: "tether-inotify", maxLength: 65_536,
                onChunk: { [unowned instance] chunk in instance.handle(chunk) },
                onEnd: { [unowned instance] _ in instance.readerEnded() })
            switch started {
            case .success(let reader):
                instance.reader = reader
                return .success(instance)
            case .failure(let failure):
                return .failure(.systemCallFailed(call: failure.call, errno: failure.errno))
            }
        }

        /// Stops the reader and closes the descriptor; from another thread, returns once they are gone.
        func close() {
            reader?.dispose()
        }

        /// The reader stopped on its own (a failing `read`): the next watch opens a new instance, and every
        /// client of this one ends.
        private func readerEnded() {
            Inotify.shared.forget(self)
            for client in Inotify.shared.allClients(of: self) { client.receive(.ended) }
        }

        /// Decodes the events of one `read(2)` and hands them to their clients.
        private func handle(_ chunk: UnsafeRawBufferPointer) {
            let headerSize = MemoryLayout<inotify_event>.size
            var offset = 0
            while offset + headerSize <= chunk.count {
                let wd = chunk.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = chunk.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = chunk.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(chunk.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + headerSize
                guard nameStart + length <= chunk.count else { break }
                let nameBytes = UnsafeRawBufferPointer(rebasing: chunk[nameStart..<(nameStart + length)])
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + length
                handle(wd: wd, mask: mask, cookie: cookie, name: name)
            }
            // A rename's second half may be in the next read: wait a little for it before calling the first
            // half a move out of sight.
            if pending != nil {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&request, 1, Inotify.pairingGraceMilliseconds) <= 0 { flushPendingMove() }
            }
        }

        private func handle(wd: Int32, mask: UInt32, cookie: UInt32, name: String) {
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                flushPendingMove()
                for client in Inotify.shared.allClients(of: self) { client.receive(.overflow) }
                return
            }
            if mask & UInt32(IN_MOVED_TO) != 0, let pending, pending.cookie == cookie {
                self.pending = nil
                pairMove(from: pending.descriptor, name: pending.name, to: wd, name: name)
                return
            }
            flushPendingMove()
            if mask & UInt32(IN_MOVED_FROM) != 0 {
                pending = (wd, name, cookie)
                return
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                for client in Inotify.shared.drop(wd, of: self) { client.receive(.ended) }
                return
            }
            let notice: InotifyNotice
            if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                notice = .directoryGone
            } else if name.isEmpty {
                guard mask & UInt32(IN_ATTRIB) != 0 else { return }
                notice = .attributesChanged
            } else if mask & UInt32(IN_CREATE) != 0 {
                notice = .entry(.created, name: name)
            } else if mask & UInt32(IN_DELETE) != 0 {
                notice = .entry(.deleted, name: name)
            } else if mask & UInt32(IN_MODIFY) != 0 {
                notice = .entry(.modified, name: name)
            } else if mask & UInt32(IN_ATTRIB) != 0 {
                notice = .entry(.attributesChanged, name: name)
            } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                notice = .entry(.closedAfterWriting, name: name)
            } else if mask & UInt32(IN_MOVED_TO) != 0 {
                notice = .entry(.movedIn(from: nil), name: name)
            } else {
                return
            }
            deliver(notice, to: wd)
        }

        /// Reports a rename's first half that found no second: moved out of every watch's sight.
        private func flushPendingMove() {
            guard let pending else { return }
            self.pending = nil
            deliver(.entry(.movedOut(to: nil), name: pending.name), to: pending.descriptor)
        }

        private func pairMove(from source: Int32, name oldName: String, to target: Int32, name newName: String) {
            if source == target {
                deliver(.renamed(from: oldName, to: newName), to: source)
                return
            }
            let sourceDirectory = Inotify.shared.directory(source, of: self)
            let targetDirectory = Inotify.shared.directory(target, of: self)
            for client in sourceDirectory?.clients ?? [] {
                client.receive(.entry(.movedOut(to: targetDirectory.map { join($0.path, newName) }), name: oldName))
            }
            for client in targetDirectory?.clients ?? [] {
                client.receive(.entry(.movedIn(from: sourceDirectory.map { join($0.path, oldName) }), name: newName))
            }
        }

        private func deliver(_ notice: InotifyNotice, to descriptor: Int32) {
            guard let directory = Inotify.shared.directory(descriptor, of: self) else { return }
            for client in directory.clients { client.receive(notice) }
        }
    }
}

/// `directory` joined with an entry's `name` (no doubled slash after `/`).
func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
