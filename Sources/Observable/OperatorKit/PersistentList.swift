/// A list that is extended by making a new list that shares the old one: `list.appending(x)` costs one
/// node, and `list` is unchanged. The parts of a signal that an operator composed of others and may extend
/// (a chain of `concat`s or `catch`es, see ``SignalComposition``): `chain = chain.concat(next)` in a loop
/// must not copy the list ten thousand times.
///
/// <!-- example: skip -->
/// ```swift
/// let one = PersistentList(1)
/// let three = one.appending(2).appending(3)
/// three.elements   // [1, 2, 3]
/// one.elements     // [1]
/// ```
final class PersistentList<Element> {
    /// The list before ``last``; `nil` if ``last`` is the first element. Cleared only by `deinit`.
    private var earlier: PersistentList?
    /// The last element.
    let last: Element
    /// How many elements the list holds.
    let count: Int

    /// A list of one element.
    init(_ first: Element) {
        earlier = nil
        last = first
        count = 1
    }

    private init(earlier: PersistentList, last: Element) {
        self.earlier = earlier
        self.last = last
        count = earlier.count + 1
    }

    /// This list followed by `element`, sharing this one.
    func appending(_ element: Element) -> PersistentList {
        PersistentList(earlier: self, last: element)
    }

    /// The elements, first to last (a new array: O(`count`)).
    var elements: [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var node: PersistentList? = self
        while let current = node {
            elements.append(current.last)
            node = current.earlier
        }
        elements.reverse()
        return elements
    }

    // A list ten thousand long would otherwise be freed by ten thousand nested releases. Moved out, not bound
    // to a local: the queued reference must be the last one, released by the thread's loop (see
    // `DeepChainTrampoline.releaseLater(_:)`), or the release would still nest here.
    deinit {
        if earlier != nil { DeepChainTrampoline.releaseLater(earlier.take() as Any) }
    }
}
