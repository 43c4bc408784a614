/// An object whose deallocation tests observe through a weak reference.
package final class Tracked: @unchecked Sendable {
    package let id: Int
    package init(_ id: Int = 0) { self.id = id }
}
