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
    // Safety (both): set by `init`, read by `last` and `elements`, cleared only by `deinit` (when no other
    // reference exists), so no access overlaps a write.
    /// The list before ``last``; `nil` if ``last`` is the first element.
    @exclusivity(unchecked) private var earlier: PersistentList?
    /// The last element (``last``); optional only so that `deinit` can move it out.
    @exclusivity(unchecked) private var storedLast: Element?
    /// How many elements the list holds.
    let count: Int

    /// A list of one element.
    init(_ first: Element) {
        earlier = nil
        storedLast = first
        count = 1
    }

    private init(earlier: PersistentList, last: Element) {
        self.earlier = earlier
        storedLast = last
        count = earlier.count + 1
    }

    /// The last element.
    var last: Element { storedLast.unsafelyUnwrapped }

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

    // Both the list before this node and the last element are released by the thread's loop (see
    // `DeepChainTrampoline.releaseLater(_:)`), not from inside this release: a list ten thousand long would be
    // freed by ten thousand nested releases, and so would lists that hold one another through their elements
    // (`Signal(value: x).concat(chain)` in a loop: each list's last signal keeps the next list, through its
    // start closure and its annex). Moved out, not bound to a local: the queued references must be the last
    // ones, or the releases would still nest here.
    deinit {
        DeepChainTrampoline.releaseLater((earlier.take(), storedLast.take()) as Any)
    }
}
