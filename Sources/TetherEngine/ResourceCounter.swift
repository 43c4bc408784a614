/// The count of Tether's live per-subscription objects behind `Observable`'s public `ResourceCounter`
/// (leak checks): every object a subscription allocates holds a ``ResourceToken`` while it is alive. A
/// debug build of the library counts; a release build counts nothing.
@usableFromInline
package enum LiveResources {
    /// The number of live objects counted (always `0` in a release build of the library).
    package static var total: Int { liveResources.value }

    /// Whether this build of the library counts (debug builds do).
    package static var isEnabled: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// Counts one object more. Not inlinable, so the library's build decides whether it counts.
    @usableFromInline
    package static func increment() {
        #if DEBUG
            liveResources.add(1)
        #endif
    }

    /// Counts one object less.
    @usableFromInline
    package static func decrement() {
        #if DEBUG
            liveResources.add(-1)
        #endif
    }
}

/// A count a leak check reads on its own (nothing else is read through it): relaxed, as every
/// ``RelaxedCounter`` is. A check made after the objects' deinitializers ran on other threads sees their
/// decrements once it has synchronized with those threads (joined them, or waited for them through a lock).
private let liveResources = RelaxedCounter()

/// A zero-size member that counts its owner in ``LiveResources``: one line
/// (`@usableFromInline let resourceToken = ResourceToken()`) covers every initializer and the
/// deinitializer of the class that holds it.
@frozen
@usableFromInline
package struct ResourceToken: ~Copyable {
    @inlinable
    package init() {
        LiveResources.increment()
    }

    // Inlinable: a class that holds a token in another module (a subscription's `CompositeDisposable`)
    // must see its deinit, or the optimizer can no longer allocate that object on the stack.
    @inlinable
    deinit {
        LiveResources.decrement()
    }
}
