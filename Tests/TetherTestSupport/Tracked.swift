/// An object whose deallocation tests observe through a weak reference.
package final class Tracked: @unchecked Sendable {
    package let id: Int
    package init(_ id: Int = 0) { self.id = id }
}

/// An object that counts its deallocation in `freed`: for tests that free many at once, on another thread.
package final class FreeCounted: Sendable {
    private let freed: Counter
    package init(_ freed: Counter) { self.freed = freed }
    deinit { freed.increment() }
}
