/// One change to a watched path, from `Signal.fileEvents(at:)`.
///
/// Paths are the watched path as you gave it, or, for an entry of a watched directory, that directory's
/// path joined with the entry's name. A rename is one ``moved(from:to:)`` event carrying both names (the
/// kernel's two halves of it are paired); an entry moved out to a place no watch sees is ``deleted(_:)``,
/// and one moved in from such a place is ``created(_:)``.
///
/// ```swift
/// func describe(_ event: FileEvent) -> String {
///     switch event {
///     case .created(let path): "new: \(path)"
///     case .modified(let path): "written: \(path)"
///     case .attributesChanged(let path): "chmod/touch: \(path)"
///     case .deleted(let path): "gone: \(path)"
///     case .moved(let from, let to): "renamed: \(from) → \(to)"
///     }
/// }
/// ```
public enum FileEvent: Hashable, Sendable, CustomStringConvertible {
    /// An entry appeared: created, or moved in from a place no watch sees (`IN_CREATE`, unpaired `IN_MOVED_TO`).
    ///
    /// ```swift
    /// // touch /tmp/app/new.txt, with /tmp/app watched
    /// FileEvent.created("/tmp/app/new.txt")
    /// ```
    case created(String)
    /// Bytes were written to a file, or it was truncated (`IN_MODIFY`, once per `write(2)`; the kernel merges
    /// repeated writes that are not read yet).
    ///
    /// ```swift
    /// // echo more >> /tmp/app/log.txt
    /// FileEvent.modified("/tmp/app/log.txt")
    /// ```
    case modified(String)
    /// Permissions, ownership, timestamps, link count or extended attributes changed (`IN_ATTRIB`).
    ///
    /// ```swift
    /// // chmod 600 /tmp/app/secret.txt
    /// FileEvent.attributesChanged("/tmp/app/secret.txt")
    /// ```
    case attributesChanged(String)
    /// An entry was removed, or moved out to a place no watch sees (`IN_DELETE`, unpaired `IN_MOVED_FROM`);
    /// also the watched directory itself, deleted or moved away (`IN_DELETE_SELF`, `IN_MOVE_SELF`).
    ///
    /// ```swift
    /// // rm /tmp/app/old.txt
    /// FileEvent.deleted("/tmp/app/old.txt")
    /// ```
    case deleted(String)
    /// An entry was renamed or moved between watched directories: one event with both paths
    /// (`IN_MOVED_FROM` and `IN_MOVED_TO` paired by their cookie). An editor's atomic save is
    /// `.moved(from: "<dir>/.file.tmp", to: "<dir>/file")`.
    ///
    /// ```swift
    /// // mv /tmp/app/draft.txt /tmp/app/final.txt
    /// FileEvent.moved(from: "/tmp/app/draft.txt", to: "/tmp/app/final.txt")
    /// ```
    case moved(from: String, to: String)

    /// The paths the event names: one, or two for ``moved(from:to:)``.
    ///
    /// ```swift
    /// print(FileEvent.moved(from: "/tmp/a", to: "/tmp/b").paths)   // ["/tmp/a", "/tmp/b"]
    /// ```
    public var paths: [String] {
        switch self {
        case .created(let path), .modified(let path), .attributesChanged(let path), .deleted(let path): [path]
        case .moved(let from, let to): [from, to]
        }
    }

    /// `created(/tmp/a)`, `moved(/tmp/a → /tmp/b)`.
    ///
    /// ```swift
    /// print(FileEvent.deleted("/tmp/a"))   // deleted(/tmp/a)
    /// ```
    public var description: String {
        switch self {
        case .created(let path): "created(\(path))"
        case .modified(let path): "modified(\(path))"
        case .attributesChanged(let path): "attributesChanged(\(path))"
        case .deleted(let path): "deleted(\(path))"
        case .moved(let from, let to): "moved(\(from) → \(to))"
        }
    }
}
