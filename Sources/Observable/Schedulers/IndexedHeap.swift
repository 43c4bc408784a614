import TetherEngine

/// An element of an ``IndexedHeap``: an object that carries its priority and its own position in the heap,
/// so that the heap can remove it from anywhere in O(log n) without searching for it.
///
/// <!-- example: skip -->
/// ```swift
/// final class Job: IndexedHeapElement {
///     let heapPriority: Int
///     var heapIndex: Int?
///     init(_ priority: Int) { heapPriority = priority }
/// }
/// ```
package protocol IndexedHeapElement: AnyObject {
    /// What orders the heap: the smallest comes out first. Equal priorities come out in no particular
    /// order, so make priorities unique (``TestScheduler`` adds a sequence number) where order matters.
    associatedtype Priority: Comparable

    /// The element's priority. It must not change while the element is in a heap: take the element
    /// out, change it, and insert it again.
    var heapPriority: Priority { get }

    /// The element's position in its heap's storage, or `nil` when it is in no heap. Only the heap
    /// writes it; start it at `nil`.
    var heapIndex: Int? { get set }
}

/// A binary min-heap of objects that know where they are in it: insertion, removal of the minimum and
/// removal of any element are O(log n).
///
/// An array laid out as a complete binary tree (the children of `i` at `2i + 1` and `2i + 2`): each
/// element's priority is at most its children's. Every move of an element writes its new position into
/// its ``IndexedHeapElement/heapIndex``, so `remove(_:)` finds it at once, moves the last element into
/// the hole and sifts that one up or down. ``comparisons`` counts the priority comparisons made, so that
/// tests can check the work done rather than the time it took.
///
/// Not thread-safe: keep it behind its owner's lock (``TestScheduler`` does).
///
/// <!-- example: skip -->
/// ```swift
/// var heap = IndexedHeap<Job>()
/// let late = Job(5)
/// heap.insert(Job(3))
/// heap.insert(late)
/// heap.insert(Job(1))
/// heap.remove(late)               // true
/// heap.popMin()?.heapPriority     // 1
/// heap.popMin()?.heapPriority     // 3
/// heap.popMin()                   // nil
/// ```
package struct IndexedHeap<Element: IndexedHeapElement> {
    private var storage: [Element] = []

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

    /// Whether `element` is in this heap.
    ///
    /// - Complexity: O(1).
    package func contains(_ element: Element) -> Bool {
        guard let index = element.heapIndex, index < storage.count else { return false }
        return storage[index] === element
    }

    /// Adds `element`, which must not be in a heap already.
    ///
    /// - Complexity: O(log n).
    package mutating func insert(_ element: Element) {
        precondition(element.heapIndex == nil, "IndexedHeap.insert: the element is already in a heap")
        storage.append(element)
        siftUp(from: storage.count - 1)
    }

    /// Removes and returns the element with the smallest priority, or `nil` if the heap is empty.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func popMin() -> Element? {
        storage.isEmpty ? nil : remove(at: 0)
    }

    /// Removes `element` from the heap; returns `false` (and does nothing) if it is not in this heap.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func remove(_ element: Element) -> Bool {
        guard contains(element), let index = element.heapIndex else { return false }
        remove(at: index)
        return true
    }

    /// Removes every element, leaving each one's `heapIndex` at `nil`, and returns them in no particular
    /// order.
    ///
    /// - Complexity: O(n).
    package mutating func removeAll() -> [Element] {
        let removed = storage
        storage = []
        for element in removed { element.heapIndex = nil }
        return removed
    }

    /// Checks the heap property and every element's index (for tests).
    ///
    /// - Complexity: O(n); not counted in ``comparisons``.
    package func isValid() -> Bool {
        for (index, element) in storage.enumerated() {
            guard element.heapIndex == index else { return false }
            if index > 0, element.heapPriority < storage[(index - 1) / 2].heapPriority { return false }
        }
        return true
    }

    @discardableResult
    private mutating func remove(at index: Int) -> Element {
        let removed = storage[index]
        let last = storage.removeLast()
        if index < storage.count {
            // The last element fills the hole, then moves to wherever the heap property puts it.
            storage[index] = last
            if index > 0, isLess(last, storage[(index - 1) / 2]) {
                siftUp(from: index)
            } else {
                siftDown(from: index)
            }
        }
        removed.heapIndex = nil
        return removed
    }

    /// Moves the element at `index` up past every parent with a larger priority.
    private mutating func siftUp(from index: Int) {
        let element = storage[index]
        var hole = index
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard isLess(element, storage[parent]) else { break }
            move(from: parent, to: hole)
            hole = parent
        }
        storage[hole] = element
        element.heapIndex = hole
    }

    /// Moves the element at `index` down past every child with a smaller priority.
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
        storage[hole] = element
        element.heapIndex = hole
    }

    private mutating func move(from source: Int, to destination: Int) {
        let element = storage[source]
        storage[destination] = element
        element.heapIndex = destination
    }

    private mutating func isLess(_ lhs: Element, _ rhs: Element) -> Bool {
        comparisons &+= 1
        return lhs.heapPriority < rhs.heapPriority
    }
}

/// A heap of `Sendable` elements is `Sendable`: it is a plain value (an array and a count).
extension IndexedHeap: Sendable where Element: Sendable {}
