import Synchronization

/// A thread-safe flag, raised once: what one thread raises, another sees (with the writes made before).
package final class Flag: Sendable {
    private let state = Atomic<Bool>(false)

    package init() {}

    package var isRaised: Bool { state.load(ordering: .acquiring) }
    package func raise() { state.store(true, ordering: .releasing) }
}
