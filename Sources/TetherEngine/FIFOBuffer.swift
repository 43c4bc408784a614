/// A first-in, first-out queue over an array: values waiting for `zip` partners, inner signals waiting
/// for `concat`, values waiting for an async loop.
///
/// Popping is O(1) amortized: it moves `head` on and compacts the array once the consumed prefix is at
/// least 32 values and half of it. When the queue empties, storage of up to 64 values is kept, so a steady
/// flow does not allocate per value, and larger storage (after a burst) is let go.
@usableFromInline
package struct FIFOBuffer<Element> {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable
    package init() {}

    @inlinable
    package var isEmpty: Bool { head == storage.count }

    @inlinable
    package var count: Int { storage.count - head }

    @inlinable
    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest value. The buffer must not be empty.
    @inlinable
    package mutating func removeFirst() -> Element {
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 64)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}

/// A buffer of `Sendable` values is `Sendable`: it is a value, with no shared state of its own.
extension FIFOBuffer: Sendable where Element: Sendable {}
