import TetherEngine
import TetherShims

/// How many threads are evaluating a key path under read tracking right now.
///
/// `@Observed` getters check it with one relaxed load (a plain read on x86) and only look up the
/// thread-local tracker when it is non-zero, so a read costs almost nothing when nobody tracks.
@usableFromInline
let observedReadTrackingDepth = RelaxedCounter()

/// One `@Observed` property read while a key path was being evaluated.
@usableFromInline
struct TrackedRead {
    /// The property's observer storage.
    @usableFromInline let channel: any AnyPropertyObserverList
    /// The object that owns the property.
    @usableFromInline let owner: ObjectIdentifier
    /// The property's key path on its declaring class (`\Account.name`).
    @usableFromInline let keyPath: AnyKeyPath

    @usableFromInline
    init(channel: any AnyPropertyObserverList, owner: ObjectIdentifier, keyPath: AnyKeyPath) {
        self.channel = channel
        self.owner = owner
        self.keyPath = keyPath
    }
}

/// Records the `@Observed` properties read on this thread while a key path is evaluated.
///
/// `track { … }` installs a tracker in a thread-local slot; `@Observed` getters report to the tracker of
/// their thread. Trackers nest: an evaluation inside an evaluation records into its own tracker.
@usableFromInline
final class ReadTracker {
    @usableFromInline var reads: [TrackedRead] = []
    @usableFromInline var seen: Set<ObjectIdentifier> = []

    @usableFromInline
    init() {}

    /// The tracker of the calling thread, if it is evaluating a key path (a thread-local slot:
    /// `tether_read_tracker`, TetherShims).
    @usableFromInline
    static var current: ReadTracker? {
        guard let raw = tether_read_tracker() else { return nil }
        return Unmanaged<ReadTracker>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body`, returning its result and the `@Observed` properties it read (each once, in order).
    @usableFromInline
    static func track<T>(_ body: () -> T) -> (T, [TrackedRead]) {
        let tracker = ReadTracker()
        let result = withObjectInThreadSlot(
            tracker, read: tether_read_tracker, write: tether_set_read_tracker,
            active: observedReadTrackingDepth, body
        ).result
        return (result, tracker.reads)
    }

    @usableFromInline
    func record(_ read: TrackedRead) {
        if seen.insert(ObjectIdentifier(read.channel)).inserted {
            reads.append(read)
        }
    }
}
