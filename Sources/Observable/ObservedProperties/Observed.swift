import TetherEngine

/// Makes a stored property of a ``KeyPathObservable`` class observable with
/// ``KeyPathObservable/observe(_:)`` — Tether's replacement for KVO on Linux.
///
/// An `@Observed` property is exactly as safe as a plain stored property: its owner's isolation (a
/// `@MainActor` view model, an actor, a serial queue) keeps sets and reads on one thread at a time, and
/// Swift 6 checks that at compile time. Observers may be disposed from any thread.
///
/// Cost: until the property is first observed, a set is a plain store plus one `nil` check (no lock, no
/// atomic read-modify-write, no allocation); a read adds one relaxed atomic load. The observer storage is
/// allocated when the property is first observed and lives inside the property, so a set never looks
/// anything up in a global table.
///
/// Sets made from inside an observer of the same property are delivered after the current one, in order.
///
/// ```swift
/// final class LoginViewModel: KeyPathObservable {
///     @Observed var username = ""
///     @Observed var password = ""
/// }
/// let vm = LoginViewModel()
/// vm.observe(\.username).subscribe(next: { print($0) })   // (empty)
/// vm.username = "ann"                                      // ann
/// ```
///
/// `@Observed` relies on the `_enclosingInstance` property-wrapper subscript (the mechanism behind
/// Combine's `@Published`), so it only applies to stored properties of classes. Observing hangs on
/// ``KeyPathObservable``: adopt it to call `observe(\.property)` on the object. An `@Observed`
/// property of a class that does not adopt it still works, and is followed when a key path observed from
/// a `KeyPathObservable` object passes through it (`model.observe(\.settings.theme)`).
@propertyWrapper
public struct Observed<Value> {
    @usableFromInline var value: Value
    /// Allocated on first observation (on the owner's isolation); only this wrapper holds it.
    @usableFromInline var box: PropertyObserverListBox<Value>?
    /// `box.channel`, unretained (the box owns it), so that a set reads it without reference counting.
    @usableFromInline var channel: Unmanaged<PropertyObserverList<Value>>?

    /// Creates the property with its initial value (`@Observed var name = ""`).
    ///
    /// ```swift
    /// final class Counter: KeyPathObservable {
    ///     @Observed var count = 0
    /// }
    /// ```
    @inlinable
    public init(wrappedValue: Value) {
        value = wrappedValue
        box = nil
        channel = nil
    }

    /// Unavailable: `@Observed` needs its enclosing object, so it only works inside classes.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// struct Settings { @Observed var theme = "" }   // error: only in KeyPathObservable classes
    /// ```
    @available(
        *, unavailable,
        message: "@Observed can only be applied to stored properties of classes that adopt KeyPathObservable"
    )
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        // swift-format-ignore
        set { fatalError("unavailable") }
    }

    /// The accessor the compiler uses for `object.property` (reads and writes).
    ///
    /// ```swift
    /// final class LoginViewModel: KeyPathObservable { @Observed var username = "" }
    /// let vm = LoginViewModel()
    /// vm.username = "ann"   // calls the setter through this subscript
    /// ```
    @inlinable
    public static subscript<Instance: AnyObject>(
        _enclosingInstance instance: Instance,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Instance, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Value {
        // Always inlined, so that the compiler folds the key paths into direct field accesses; the
        // work behind an observed set is a separate (specialized) call.
        @inline(__always) get {
            if observedReadTrackingDepth.value != 0 {
                reportRead(instance, wrappedKeyPath, storageKeyPath)
            }
            return instance[keyPath: storageKeyPath].value
        }
        @inline(__always) set {
            // `_fastPath`: meant to make the unobserved set the fall-through, so that a loop of sets takes one
            // branch per iteration, not two (a taken jump to the plain store and one back). The hint is given
            // on the channel's address as an integer: the optimizer drops it from a test of the optional
            // itself. With Swift 6.3.1 the benchmark's loop (W6, no observer) still jumps to the store: the
            // observed path is laid out first whatever the hint, `_slowPath` on it, or one store between two
            // tests (tried, 2026-12-04).
            let address = UInt(bitPattern: instance[keyPath: storageKeyPath].channel?.toOpaque())
            if _fastPath(address == 0) {
                instance[keyPath: storageKeyPath].value = newValue
                return
            }
            let channel = Unmanaged<PropertyObserverList<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            // The box (owned by this storage) keeps the channel alive: no reference counting needed.
            channel._withUnsafeGuaranteedRef { channel in
                if channel.willSetCount != 0 { channel.willSet() }
                // Keep the old value alive until the observers have moved on: its deinit (which may
                // end observations that read this property) must not run inside the store's access.
                let oldValue = instance[keyPath: storageKeyPath].value
                instance[keyPath: storageKeyPath].value = newValue
                channel.didSet(newValue)
                withExtendedLifetime(oldValue) {}
            }
        }
        // In-place mutation (`model.items.append(x)`): no copy of the value while nobody observes.
        @inline(__always) _modify {
            let channel = instance[keyPath: storageKeyPath].channel
            if let channel {
                channel._withUnsafeGuaranteedRef { if $0.willSetCount != 0 { $0.willSet() } }
            }
            yield &instance[keyPath: storageKeyPath].value
            if let channel {
                let newValue = instance[keyPath: storageKeyPath].value
                channel._withUnsafeGuaranteedRef { $0.didSet(newValue) }
            }
        }
    }

    /// Tells the current thread's read tracker (if any) that this property was read.
    @usableFromInline
    static func reportRead<Instance: AnyObject>(
        _ instance: Instance,
        _ wrappedKeyPath: ReferenceWritableKeyPath<Instance, Value>,
        _ storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) {
        guard let tracker = ReadTracker.current else { return }
        let box = instance[keyPath: storageKeyPath].installedBox()
        tracker.record(
            TrackedRead(channel: box.channel, owner: ObjectIdentifier(instance), keyPath: wrappedKeyPath))
    }

    /// The observer storage, allocated if needed (owner's isolation only).
    @usableFromInline
    mutating func installedBox() -> PropertyObserverListBox<Value> {
        if let box { return box }
        let box = PropertyObserverListBox<Value>()
        self.box = box
        self.channel = .passUnretained(box.channel)
        return box
    }
}
