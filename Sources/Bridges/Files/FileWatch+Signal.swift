import Foundation
import Observable
import TetherEngine

extension Signal where Value == FileEvent, Failure == FileWatchError {
    /// The changes to a file, or to the entries of a directory, as they happen (inotify).
    ///
    /// - A directory: each entry created, modified, whose attributes changed, deleted or renamed; the
    ///   directory's own attribute changes; its own deletion or move away as ``FileEvent/deleted(_:)``,
    ///   after which the signal completes. Entries of subdirectories are not followed.
    /// - A file: the same events of that one name. The file is watched through its directory, so a file
    ///   deleted and created again, or replaced by a rename (an editor's atomic save:
    ///   ``FileEvent/moved(from:to:)`` onto the path), keeps being followed; the signal completes when the
    ///   directory holding it is deleted or moved.
    /// - A symbolic link to a directory is followed; for a link to a file, its own entry is watched (a change
    ///   to the file it points to in another directory is not seen: watch that path).
    /// - A rename is one ``FileEvent/moved(from:to:)``. The kernel reports its two halves separately; a
    ///   first half waits up to 50 ms on the reader thread for its second, and one that never comes (a move
    ///   out of every watch's sight) is ``FileEvent/deleted(_:)``.
    ///
    /// Events arrive on a background thread that every watch of the process shares (deliver them elsewhere
    /// with `deliver(on:)`; a slow subscriber delays the other watches). Bad input is a typed error at
    /// once: ``FileWatchError/noSuchPath(_:)`` (the path must exist; watch the directory to see a file
    /// appear), ``FileWatchError/permissionDenied(_:)``, ``FileWatchError/watchLimitReached(_:)`` (`ENOSPC`,
    /// `fs.inotify.max_user_watches`), ``FileWatchError/invalidPath(_:)``. When the kernel's queue overflows,
    /// events are lost and the signal fails with ``FileWatchError/eventQueueOverflow(_:)``: rescan, then
    /// `retry()`.
    ///
    /// Disposing removes the watch (`inotify_rm_watch`); the process's inotify descriptor and its reader
    /// thread are closed when the last watch goes.
    ///
    /// <!-- example: output-unchecked: the events reach the handler on the reader thread, after the write returns -->
    /// ```swift
    /// let directory = FileManager.default.temporaryDirectory.path
    /// let watching = Signal.fileEvents(at: directory)
    ///     .subscribe(next: { print($0) }, error: { print("stopped:", $0) })
    /// try? FileManager.default.removeItem(atPath: directory + "/notes.txt")
    /// try Data("hi".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))   // not atomic: in place
    /// // created(/tmp/notes.txt)
    /// // modified(/tmp/notes.txt)
    /// watching.dispose()
    /// ```
    public static func fileEvents(at path: String) -> Signal {
        makeFileEvents(at: path, coalescing: nil)
    }

    /// The changes to a file or directory (as ``fileEvents(at:)``), coalesced: the events of each `window`
    /// after the first one are sent together, merged path by path, by `scheduler`.
    ///
    /// Within a window, repeated ``FileEvent/modified(_:)`` or ``FileEvent/attributesChanged(_:)`` of a path
    /// become one (the first); those after a ``FileEvent/created(_:)`` of the path are dropped (the
    /// creation covers them); a path created and deleted within the window is not reported at all. Order is
    /// kept otherwise. A window is measured on `scheduler`'s clock, so a `TestScheduler` makes it virtual.
    /// A terminal event (completion, overflow) is sent after its window's events. A negative window counts
    /// as zero.
    ///
    /// <!-- example: output-unchecked: the writes are described, not made -->
    /// ```swift
    /// let logs = FileManager.default.temporaryDirectory.path
    /// Signal.fileEvents(at: logs, coalescingFor: .milliseconds(200), on: QueueScheduler())
    ///     .subscribe(next: { print($0) })
    /// // a program writing app.log 1,000 times in 200 ms gives one modified(/tmp/app.log)
    /// ```
    public static func fileEvents(at path: String, coalescingFor window: Duration, on scheduler: any Scheduler)
        -> Signal
    {
        makeFileEvents(at: path, coalescing: FileWatchCoalescing(window: window, scheduler: scheduler))
    }

    private static func makeFileEvents(at path: String, coalescing: FileWatchCoalescing?) -> Signal {
        Signal { observer in
            startWatch(
                WatchTarget.resolve(path), observer: observer,
                client: { FileEventsClient(target: $0, observer: observer, coalescing: coalescing) },
                drain: { $0.drain })
        }
    }
}

extension Signal where Value == Data, Failure == FileWatchError {
    /// A file's contents as a value: the current contents first, then the new contents after each change.
    ///
    /// The file is re-read when a writer closes it (`IN_CLOSE_WRITE`), when a file is moved or renamed onto
    /// its path — an editor's atomic save (write a temporary file, rename it over the original) keeps
    /// working, since the directory is watched and not only the file — and when its attributes change;
    /// contents equal to the last ones sent are not sent again. A writer that keeps the file open is seen
    /// when it closes it (follow such a file with ``Signal/fileEvents(at:)``). While the file is deleted
    /// nothing is sent: the next file at the path is read as it appears. After an event-queue overflow the
    /// file is simply re-read. The signal completes when the directory holding the file is deleted or moved.
    ///
    /// Re-reads run on the watches' shared background thread. A path that is a symbolic link is read
    /// through the link, but changes are watched in the link's own directory.
    ///
    /// A program that writes the file in place (truncating it, then writing) can be caught by a re-read
    /// that an earlier change started; its final contents always follow when it closes the file. A save
    /// through a renamed temporary file never shows a partial file. The file must exist when you subscribe
    /// (else ``FileWatchError/noSuchPath(_:)``), and be a regular file (else
    /// ``FileWatchError/isADirectory(_:)``, or ``FileWatchError/notARegularFile(_:)`` for a FIFO, a socket
    /// or a device such as `/dev/zero`, also behind a symbolic link: checked without blocking, at once) of
    /// at most ``maximumFileContentsSize`` bytes (else ``FileWatchError/fileTooLarge(path:size:limit:)``).
    /// The same checks apply at every re-read: a FIFO, a link to a device or an oversized file put in the
    /// file's place ends the watch with that error, and never holds up the shared reader thread (the other
    /// watches of the process go on). A file that cannot be read fails with
    /// ``FileWatchError/permissionDenied(_:)`` or ``FileWatchError/readFailed(path:errno:)``. Disposing
    /// removes the watch.
    ///
    /// <!-- example: output-unchecked: the new contents reach the handler on the reader thread, after the write returns -->
    /// ```swift
    /// let path = FileManager.default.temporaryDirectory.path + "/app.conf"
    /// FileManager.default.createFile(atPath: path, contents: Data("level=info".utf8))
    /// let configuration = Signal.fileContents(at: path)
    ///     .map { String(decoding: $0, as: UTF8.self) }
    ///     .subscribe(next: { print("configuration:", $0) })
    /// // configuration: level=info
    /// try Data("level=debug".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    /// // configuration: level=debug
    /// configuration.dispose()
    /// ```
    public static func fileContents(at path: String) -> Signal {
        makeFileContents(at: path, coalescing: nil)
    }

    /// The largest file ``fileContents(at:)`` reads: 64 MiB (67,108,864 bytes). A larger file — or one that
    /// grows past it while it is read — fails the signal with
    /// ``FileWatchError/fileTooLarge(path:size:limit:)`` instead of filling memory; follow such a file with
    /// ``Signal/fileEvents(at:)`` and read the part you need.
    ///
    /// ```swift
    /// print(Signal.maximumFileContentsSize)   // 67108864
    /// ```
    public static var maximumFileContentsSize: Int { 64 << 20 }

    /// A file's contents as a value (as ``fileContents(at:)``), re-read at most once per `window` on
    /// `scheduler`: a change starts a window, and the file is read when it ends. The first contents are
    /// read at once when you subscribe. A negative window counts as zero.
    ///
    /// ```swift
    /// let path = FileManager.default.temporaryDirectory.path + "/feed.json"
    /// FileManager.default.createFile(atPath: path, contents: Data("[]".utf8))
    /// Signal.fileContents(at: path, coalescingFor: .milliseconds(100), on: QueueScheduler())
    ///     .subscribe(next: { print($0.count, "bytes") })
    /// ```
    public static func fileContents(at path: String, coalescingFor window: Duration, on scheduler: any Scheduler)
        -> Signal
    {
        makeFileContents(at: path, coalescing: FileWatchCoalescing(window: window, scheduler: scheduler))
    }

    private static func makeFileContents(at path: String, coalescing: FileWatchCoalescing?) -> Signal {
        Signal { observer in
            watchValue(
                at: path, requireDirectory: false, observer: observer, coalescing: coalescing,
                read: { readContents(of: path) },
                isRelevant: { notice, target in
                    switch notice {
                    case .entry(.closedAfterWriting, let name), .entry(.attributesChanged, let name),
                        .entry(.movedIn, let name):
                        return target.concerns(name)
                    case .renamed(_, let to): return target.concerns(to)
                    default: return false
                    }
                })
        }
    }
}

extension Signal where Value == [String], Failure == FileWatchError {
    /// A directory's entries as a value: the names in it (sorted, without `.` and `..`) first, then the new
    /// list after each entry is created, deleted or renamed, or moved in or out.
    ///
    /// Lists equal to the last one sent are not sent again; after an event-queue overflow the directory is
    /// simply listed again. The signal completes when the directory is deleted or moved. The path must be
    /// an existing directory (else ``FileWatchError/noSuchPath(_:)`` or
    /// ``FileWatchError/notADirectory(_:)``). Disposing removes the watch.
    ///
    /// <!-- example: output-unchecked: the new listing reaches the handler on the reader thread, after the file is created -->
    /// ```swift
    /// let inbox = FileManager.default.temporaryDirectory.path + "/inbox"
    /// try? FileManager.default.removeItem(atPath: inbox)
    /// try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    /// let listing = Signal.directoryEntries(at: inbox).subscribe(next: { print($0) })
    /// // []
    /// FileManager.default.createFile(atPath: inbox + "/1.eml", contents: Data())
    /// // ["1.eml"]
    /// listing.dispose()
    /// ```
    public static func directoryEntries(at path: String) -> Signal {
        makeDirectoryEntries(at: path, coalescing: nil)
    }

    /// A directory's entries as a value (as ``directoryEntries(at:)``), listed again at most once per
    /// `window` on `scheduler`. The first list is read at once when you subscribe. A negative window counts
    /// as zero.
    ///
    /// ```swift
    /// let spool = FileManager.default.temporaryDirectory.path
    /// Signal.directoryEntries(at: spool, coalescingFor: .seconds(1), on: QueueScheduler())
    ///     .subscribe(next: { print($0.count, "entries") })
    /// ```
    public static func directoryEntries(at path: String, coalescingFor window: Duration, on scheduler: any Scheduler)
        -> Signal
    {
        makeDirectoryEntries(at: path, coalescing: FileWatchCoalescing(window: window, scheduler: scheduler))
    }

    private static func makeDirectoryEntries(at path: String, coalescing: FileWatchCoalescing?) -> Signal {
        Signal { observer in
            watchValue(
                at: path, requireDirectory: true, observer: observer, coalescing: coalescing,
                read: { readEntries(of: path) },
                isRelevant: { notice, _ in
                    switch notice {
                    case .entry(.created, _), .entry(.deleted, _), .entry(.movedIn, _), .entry(.movedOut, _),
                        .renamed:
                        return true
                    default: return false
                    }
                })
        }
    }
}

/// Starts a value watch: checks the path, adds the watch, then reads and sends the first value.
private func watchValue<Value: Equatable & Sendable>(
    at path: String, requireDirectory: Bool, observer: Observer<Value, FileWatchError>,
    coalescing: FileWatchCoalescing?, read: @escaping @Sendable () -> WatchedRead<Value>,
    isRelevant: @escaping @Sendable (InotifyNotice, WatchTarget) -> Bool
) -> (any Disposable)? {
    startWatch(
        WatchTarget.resolve(path, requireDirectory: requireDirectory, requireFile: !requireDirectory),
        observer: observer,
        client: {
            WatchedValueClient(
                target: $0, observer: observer, coalescing: coalescing, read: read, isRelevant: isRelevant)
        },
        drain: { $0.drain },
        // The watch is in place before the first read: no change after it goes unseen.
        whenWatching: { $0.drain.runNow() })
}

/// Starts a watch of a resolved path for the client `client` makes: a path that did not resolve, or a
/// watch the kernel refuses, is sent as the error (and stops the client's drain). Disposing removes the
/// watch and stops the drain. `whenWatching` runs once the watch is in place.
private func startWatch<Value, Client: InotifyClient>(
    _ resolution: Result<WatchTarget, FileWatchError>, observer: Observer<Value, FileWatchError>,
    client makeClient: (WatchTarget) -> Client, drain: (Client) -> Rerun?,
    whenWatching: (Client) -> Void = { _ in }
) -> (any Disposable)? {
    let target: WatchTarget
    switch resolution {
    case .success(let resolved): target = resolved
    case .failure(let error):
        observer.sendError(error)
        return nil
    }
    let client = makeClient(target)
    let drain = drain(client)
    switch Inotify.shared.watch(directory: target.directory, for: client) {
    case .success(let watch):
        whenWatching(client)
        return AnyDisposable {
            watch.dispose()
            drain?.dispose()
        }
    case .failure(let error):
        drain?.dispose()
        observer.sendError(error)
        return nil
    }
}
