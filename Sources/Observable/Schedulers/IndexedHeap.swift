import TetherEngine

/// A binary min-heap of values, each under a key the heap can find it by: insertion, removal of the minimum
/// and removal of any element by its key are O(log n).
///
/// An array laid out as a complete binary tree (the children of `i` at `2i + 1` and `2i + 2`): each
/// element's priority is at most its children's. A dictionary from key to position follows every move, so
/// `remove(_:)` finds an element at once, moves the last element into the hole and sifts that one up or
/// down. ``comparisons`` counts the priority comparisons made, so that tests can check the work done rather
/// than the time it took.
///
/// A value type holding values: everything the heap knows is in its own storage, so a heap of `Sendable`
/// parts is `Sendable` and its owner's lock covers all of it (``TestScheduler`` keeps one in its
/// `LockedState`; its handles carry only their key).
///
/// Equal priorities come out in no particular order, so make priorities unique (``TestScheduler`` adds a
/// sequence number) where order matters.
///
/// <!-- example: skip -->
/// ```swift
/// var heap = IndexedHeap<String, Int, String>()
/// heap.insert(key: "late", priority: 5, payload: "c")
/// heap.insert(key: "soon", priority: 1, payload: "a")
/// heap.insert(key: "next", priority: 3, payload: "b")
/// heap.remove("late")?.payload     // "c"
/// heap.popMin()?.payload           // "a"
/// heap.popMin()?.payload           // "b"
/// heap.popMin()                    // nil
/// ```
package struct IndexedHeap<Key: Hashable, Priority: Comparable, Payload> {
    /// One element: its key (unique in the heap), its priority and what it carries.
    package struct Element {
        package let key: Key
        package let priority: Priority
        package var payload: Payload
    }

    private var storage: [Element] = []
    /// Where each key's element is in `storage`.
    private var positions: [Key: Int] = [:]

    /// The number of priority comparisons made since the heap was created.
    ///
    /// - Complexity: each operation adds at most 2·log2(n) + 2 (n: the count at the time).
    package private(set) var comparisons = 0

    /// Creates an empty heap.
    package init() {}

    /// The number of elements in the heap.
    package var count: Int { storage.count }

    /// Whether the heap holds no element.
    package var isEmpty: Bool { storage.isEmpty }

    /// The element with the smallest priority, left in the heap.
    ///
    /// - Complexity: O(1).
    package var min: Element? { storage.first }

    /// Whether an element with this key is in the heap.
    package func contains(_ key: Key) -> Bool {
        positions[key] != nil
    }

    /// Inserts an element under `key`, which must not be in the heap already.
    ///
    /// - Complexity: O(log n).
    package mutating func insert(key: Key, priority: Priority, payload: Payload) {
        precondition(positions[key] == nil, "IndexedHeap.insert: the key is already in the heap")
        storage.append(Element(key: key, priority: priority, payload: payload))
        siftUp(from: storage.count - 1)
    }

    /// Removes and returns the element with the smallest priority, or `nil` if the heap is empty.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func popMin() -> Element? {
        storage.isEmpty ? nil : remove(at: 0)
    }

    /// Removes and returns the element under `key`, or `nil` if no element has it.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func remove(_ key: Key) -> Element? {
        guard let index = positions[key] else { return nil }
        return remove(at: index)
    }

    /// Removes every element and returns them, in no particular order.
    package mutating func removeAll() -> [Element] {
        let removed = storage
        storage = []
        positions = [:]
        return removed
    }

    /// Whether the heap property and the positions hold (for tests).
    package func isValid() -> Bool {
        guard positions.count == storage.count else { return false }
        for (index, element) in storage.enumerated() {
            guard positions[element.key] == index else { return false }
            if index > 0, element.priority < storage[(index - 1) / 2].priority { return false }
        }
        return true
    }

    private mutating func remove(at index: Int) -> Element {
        let removed = storage[index]
        positions[removed.key] = nil
        let last = storage.removeLast()
        if index < storage.count {
            // The last element fills the hole, then moves to wherever the heap property puts it.
            storage[index] = last
            positions[last.key] = index
            if index > 0, isLess(last, storage[(index - 1) / 2]) {
                siftUp(from: index)
            } else {
                siftDown(from: index)
            }
        }
        return removed
    }

    private mutating func siftUp(from index: Int) {
        let element = storage[index]
        var hole = index
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard isLess(element, storage[parent]) else { break }
            move(from: parent, to: hole)
            hole = parent
        }
        place(element, at: hole)
    }

    private mutating func siftDown(from index: Int) {
        let element = storage[index]
        let count = storage.count
        var hole = index
        while true {
            let left = 2 * hole + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && isLess(storage[right], storage[left]) ? right : left
            guard isLess(storage[child], element) else { break }
            move(from: child, to: hole)
            hole = child
        }
        place(element, at: hole)
    }

    private mutating func move(from source: Int, to destination: Int) {
        place(storage[source], at: destination)
    }

    private mutating func place(_ element: Element, at index: Int) {
        storage[index] = element
        positions[element.key] = index
    }

    private mutating func isLess(_ lhs: Element, _ rhs: Element) -> Bool {
        comparisons &+= 1
        return lhs.priority < rhs.priority
    }
}

extension IndexedHeap.Element: Sendable where Key: Sendable, Priority: Sendable, Payload: Sendable {}
extension IndexedHeap: Sendable where Key: Sendable, Priority: Sendable, Payload: Sendable {}
