import TetherEngine

/// A thread-safe observable value: a box you can read, set and observe from any thread
/// (ReactiveSwift's `MutableProperty`; what `RACObserve` on an atomic property gave you in RAC).
///
/// - ``value`` reads and writes are serialized; ``modify(_:)`` is an atomic read-modify-write.
/// - ``signal`` sends the current value, then every value set (equal ones too), and completes when
///   the property deinitializes. Subscribing never keeps the property alive.
/// - Observers receive the sets in the order they happened, one at a time; an observer is never
///   called for a set that happened before its initial value. A set made while another thread is
///   delivering (or from inside an observer) is stored at once and delivered right after the current
///   delivery, by the thread that is delivering — so observers may run on a thread other than the
///   setter's.
///
/// `MutableProperty` is `Sendable` when its value is: share it between threads and tasks freely.
///
/// ```swift
/// let query = MutableProperty("")
/// query.signal.subscribe(next: { print("query:", $0) })   // query: (empty)
/// query.value = "swift"                                    // query: swift
/// query.modify { $0 += " linux" }                          // query: swift linux
/// ```
public final class MutableProperty<Value>: PropertyProtocol {
    /// The failure type: properties never fail.
    ///
    /// ```swift
    /// let count = MutableProperty(0)
    /// let signal: Signal<Int, MutableProperty<Int>.Failure> = count.signal   // Signal<Int, Never>
    /// ```
    public typealias Failure = Never

    @usableFromInline let storage: MutablePropertyStorage<Value>

    /// Creates a property holding `value`.
    ///
    /// ```swift
    /// let count = MutableProperty(0)
    /// ```
    public init(_ value: Value) {
        storage = MutablePropertyStorage(value)
    }

    deinit {
        storage.finish()
    }

    /// The current value. Setting it notifies the observers. Thread-safe.
    ///
    /// ```swift
    /// let count = MutableProperty(0)
    /// count.value += 1   // a read, then a set: use modify(_:) to make it atomic
    /// ```
    @inlinable
    public var value: Value {
        get { storage.get() }
        set { storage.set(newValue) }
    }

    /// Changes the value in place, atomically with respect to every other read and write, then notifies
    /// the observers of the result. Returns what `action` returns.
    ///
    /// `action` runs while other threads wait to read or write this property: keep it short. It must not
    /// touch this property (it receives the value `inout`); doing so is a programmer error and stops the
    /// program with a message rather than deadlocking. If `action` throws, what it already changed is
    /// kept (as for any `inout` argument), sent to the observers, and the error is rethrown.
    ///
    /// ```swift
    /// let items = MutableProperty<[String]>([])
    /// let count = items.modify { list -> Int in
    ///     list.append("milk")
    ///     return list.count
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try storage.modify(action)
    }

    /// The current value, then every value set; completes when the property deinitializes.
    ///
    /// Subscribing while no other thread delivers sends the current value before `subscribe` returns. While
    /// another thread is delivering, the new subscriber takes its place behind that delivery (it never
    /// receives a value set before its initial one); disposed before its turn, it receives nothing.
    ///
    /// ```swift
    /// let count = MutableProperty(0)
    /// count.signal.map { "\($0) items" }.subscribe(next: { print($0) })
    /// ```
    /// Marble (sets of 1, 2 after subscribing while the value is 0): `0-1-2-|`
    public var signal: Signal<Value, Never> {
        let storage = self.storage
        return Signal(unsafeStart: { sink, lifetime in
            let entry = MutablePropertyEntry(sink: sink, lifetime: lifetime, storage: storage)
            // Held inline as the lifetime's first child (see `CompositeDisposable.add(_:)` for closures).
            lifetime.add { entry.dispose() }
            storage.add(entry)
        }).tracked(sentBy: storage)
    }
}

// Checked: the property's only stored property is its storage, whose value, subscribers and writers are
// synchronized by the engine's gate; the condition keeps non-`Sendable` values from crossing threads.
extension MutableProperty: Sendable where Value: Sendable {}
