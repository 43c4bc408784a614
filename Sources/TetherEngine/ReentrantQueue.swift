/// Operations that the delivering thread submits to itself from inside a callback (reentrancy): performed
/// after the current one, in submission order, never nested — the serial gate's owner-only queue and an
/// `@Observed` property's, one type.
///
/// Touched only by the one thread delivering (the gate's owner, the property's isolation), so it needs no
/// lock. The drain loop is `while let operation = queue.next() { perform(operation) }`: each `next()` is its
/// own access, so `perform` may append to the same queue — what it appends is taken in turn, after what was
/// there before.
///
/// ```swift
/// var queue = ReentrantQueue<Int>()
/// queue.append(1)
/// queue.append(2)
/// queue.next()      // 1
/// queue.append(3)   // from inside the callback of 1
/// queue.next()      // 2
/// queue.next()      // 3
/// queue.next()      // nil: empty again
/// ```
@usableFromInline
package struct ReentrantQueue<Operation> {
    @usableFromInline var operations: ContiguousArray<Operation> = []
    /// How many operations wait (`operations.count - head`), kept apart so that the hot path's "anything
    /// queued?" reads one word without touching the array.
    @usableFromInline package internal(set) var count = 0
    /// The next operation to hand out.
    @usableFromInline var head = 0

    @inlinable
    package init() {}

    /// Whether no operation waits.
    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// Queues `operation` behind the others.
    @inlinable
    package mutating func append(_ operation: Operation) {
        operations.append(operation)
        count &+= 1
    }

    /// The next operation, in submission order; `nil` once none waits, and the queue is empty again (its
    /// storage kept unless it grew large, so a burst does not hold memory for good).
    @inlinable
    package mutating func next() -> Operation? {
        if count == 0 {
            if head != 0 {
                head = 0
                operations.removeAll(keepingCapacity: operations.capacity <= 256)
            }
            return nil
        }
        count &-= 1
        head &+= 1
        return operations[head &- 1]
    }

    /// The operation queued last, if any still waits (for the debugging tools' reports).
    @inlinable
    package var last: Operation? {
        count == 0 ? nil : operations.last
    }

    /// Takes every waiting operation out, in order (a source that ends hands them back to their owners).
    @inlinable
    package mutating func removeAll() -> ContiguousArray<Operation> {
        let waiting = ContiguousArray(operations[head...])
        operations.removeAll()
        head = 0
        count = 0
        return waiting
    }
}
