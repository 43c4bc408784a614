/// The header of a ``CompositeDisposableOverflow``.
@usableFromInline
struct CompositeDisposableOverflowHeader {
    /// The number of children held.
    var count: Int
    /// The number of children the buffer has room for.
    let capacity: Int
    /// The key of the next child added.
    var nextKey: UInt64
    /// The composite prunes finished children when it holds `32 << pruneShift` of them.
    var pruneShift: UInt8
}

/// The children of a ``CompositeDisposable`` that handed out a key other than 0 (a second child, or a
/// child added after the first was removed), with the key counter and the pruning threshold: one
/// allocation, the header followed by the children in the order added. Allocated when the composite needs
/// it: most composites hold one child, inline.
///
/// Every method is called under the composite's lock, except ``disposeAll()``, called by the disposing
/// thread after it moved the buffer out of the composite (it is then the buffer's only user).
@usableFromInline
final class CompositeDisposableOverflow:
    ManagedBuffer<CompositeDisposableOverflowHeader, (key: UInt64, child: CompositeDisposable.Child)>
{
    typealias Entry = (key: UInt64, child: CompositeDisposable.Child)

    /// An empty buffer with room for `minimumCapacity` children (or more: what the allocation holds).
    static func make(minimumCapacity: Int, nextKey: UInt64, pruneShift: UInt8 = 0) -> CompositeDisposableOverflow {
        let buffer = create(minimumCapacity: minimumCapacity) { buffer in
            CompositeDisposableOverflowHeader(
                count: 0, capacity: buffer.capacity, nextKey: nextKey, pruneShift: pruneShift)
        }
        return unsafeDowncast(buffer, to: CompositeDisposableOverflow.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, entries in
            entries.deinitialize(count: header.pointee.count)
        }
    }

    /// Adds `child` under the next key. Returns the buffer now holding the children — this one, or, when it
    /// was full, a new one twice its size, into which the children were moved — and the child's key.
    func appending(_ child: CompositeDisposable.Child) -> (buffer: CompositeDisposableOverflow, key: UInt64) {
        var target = self
        if header.count == header.capacity {
            target = Self.make(
                minimumCapacity: header.capacity * 2, nextKey: header.nextKey, pruneShift: header.pruneShift)
            withUnsafeMutablePointers { header, entries in
                target.withUnsafeMutablePointerToElements {
                    $0.moveInitialize(from: entries, count: header.pointee.count)
                }
                target.header.count = header.pointee.count
                header.pointee.count = 0
            }
        }
        let key = target.header.nextKey
        target.withUnsafeMutablePointers { header, entries in
            (entries + header.pointee.count).initialize(to: (key, child))
            header.pointee.count += 1
            header.pointee.nextKey += 1
        }
        return (target, key)
    }

    /// Removes the child added under `key`, if held, and returns it (for the caller to release after
    /// unlocking).
    @usableFromInline
    func remove(_ key: UInt64) -> CompositeDisposable.Child? {
        withUnsafeMutablePointers { header, entries in
            let count = header.pointee.count
            guard let index = (0..<count).first(where: { entries[$0].key == key }) else { return nil }
            let removed = (entries + index).move()
            (entries + index).moveInitialize(from: entries + index + 1, count: count - index - 1)
            header.pointee.count = count - 1
            return removed.child
        }
    }

    /// The children that are disposables, with their keys (for pruning, which asks them outside the lock
    /// whether they were disposed elsewhere).
    func disposables() -> [(key: UInt64, disposable: any Disposable)] {
        withUnsafeMutablePointers { header, entries in
            var found: [(key: UInt64, disposable: any Disposable)] = []
            for index in 0..<header.pointee.count {
                if case .disposable(let disposable) = entries[index].child {
                    found.append((entries[index].key, disposable))
                }
            }
            return found
        }
    }

    /// Drops the children whose keys are in `keys` (keeping the others' order), and sets the next pruning
    /// threshold: when the live children doubled, at 32 at the least.
    func prune(_ keys: Set<UInt64>) {
        withUnsafeMutablePointers { header, entries in
            var kept = 0
            for index in 0..<header.pointee.count {
                if keys.contains(entries[index].key) {
                    (entries + index).deinitialize(count: 1)
                } else {
                    if kept != index { (entries + kept).moveInitialize(from: entries + index, count: 1) }
                    kept += 1
                }
            }
            header.pointee.count = kept
            var shift: UInt8 = 0
            while 32 << Int(shift) < kept * 2 { shift += 1 }
            header.pointee.pruneShift = shift
        }
    }

    /// Whether the composite should look for children disposed elsewhere (see ``prune(_:)``).
    var needsPruning: Bool {
        header.count >= 32 << Int(header.pruneShift)
    }

    /// Disposes every child, in the order added (by the disposing thread, which moved this buffer out of its
    /// composite: no lock is held, and nothing else reads or changes the buffer).
    @usableFromInline
    func disposeAll() {
        let count = header.count
        for index in 0..<count {
            let child = withUnsafeMutablePointerToElements { $0[index].child }
            child.dispose()
        }
    }
}
