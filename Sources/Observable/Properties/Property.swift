import TetherEngine

/// A read-only observable value: a view of a ``MutableProperty``, a value derived from other
/// properties with ``PropertyProtocol/map(_:)`` or ``Property/combineLatest(_:_:)``, or a constant.
///
/// Like its sources, it sends its current value on subscription, then its changes, and completes when
/// its sources complete (when the mutable properties behind it deinitialize). A derived property keeps
/// its sources alive.
///
/// ```swift
/// let username = MutableProperty("")
/// let password = MutableProperty("")
/// let canLogIn = Property.combineLatest(username, password).map { !$0.isEmpty && !$1.isEmpty }
/// print(canLogIn.value)                                // false
/// canLogIn.signal.subscribe(next: { print($0) })       // false
/// username.value = "ann"; password.value = "secret"    // false, true
/// ```
public final class Property<Value>: PropertyProtocol {
    /// The failure type: properties never fail.
    ///
    /// ```swift
    /// let canLogIn = MutableProperty(false)
    /// let signal: Signal<Bool, Property<Bool>.Failure> = canLogIn.signal   // Signal<Bool, Never>
    /// ```
    public typealias Failure = Never

    @usableFromInline let read: () -> Value
    @usableFromInline let makeSignal: () -> Signal<Value, Never>

    @usableFromInline
    init(read: @escaping () -> Value, signal: @escaping () -> Signal<Value, Never>) {
        self.read = read
        self.makeSignal = signal
    }

    /// A read-only view of `property` (for example, to expose a `MutableProperty` without its setter).
    ///
    /// ```swift
    /// final class Uploader {
    ///     private let _status = MutableProperty("idle")
    ///     lazy var status = Property(_status)   // read-only to the outside
    /// }
    /// ```
    public convenience init<Source: PropertyProtocol>(_ property: Source) where Source.Value == Value {
        self.init(read: { property.value }, signal: { property.signal })
    }

    /// A property that always has `value`; its signal sends it, then completes.
    ///
    /// ```swift
    /// let version = Property(value: "1.0")
    /// ```
    public convenience init(value: Value) {
        self.init(read: { value }, signal: { Signal(value: value) })
    }

    /// The current value (computed from the sources on each read).
    ///
    /// ```swift
    /// let canLogIn = MutableProperty(false)
    /// if canLogIn.value { /* … */ }
    /// ```
    @inlinable
    public var value: Value { read() }

    /// The current value, then every change; completes when the sources complete.
    ///
    /// ```swift
    /// final class Button { var isEnabled = false }
    /// let button = Button()
    /// let canLogIn = MutableProperty(false)
    /// canLogIn.signal.subscribe(next: { button.isEnabled = $0 })
    /// ```
    @inlinable
    public var signal: Signal<Value, Never> { makeSignal() }
}

extension Property {
    /// A property whose value is the pair of the current values of `a` and `b`.
    ///
    /// Its signal sends the pair on subscription, then whenever either source changes, and completes
    /// when both sources have completed.
    ///
    /// ```swift
    /// let username = MutableProperty("ann"), password = MutableProperty("secret")
    /// let both = Property.combineLatest(username, password)
    /// both.value   // ("ann", "secret")
    /// ```
    /// Marble: a `1---2---`, b `x--y----` → `(1,x)-(1,y)-(2,y)-`
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol>(
        _ a: A, _ b: B
    ) -> Property where Value == (A.Value, B.Value) {
        Property(
            read: { (a.value, b.value) },
            signal: { Signal.combineLatest(a.signal, b.signal) })
    }

    /// A property whose value is the triple of the current values of `a`, `b` and `c`.
    ///
    /// ```swift
    /// let name = MutableProperty("Ann"), email = MutableProperty("ann@example.org"), age = MutableProperty(30)
    /// let form = Property.combineLatest(name, email, age)
    /// ```
    /// Marble: each change of any source sends the latest triple.
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol, C: PropertyProtocol>(
        _ a: A, _ b: B, _ c: C
    ) -> Property where Value == (A.Value, B.Value, C.Value) {
        Property(
            read: { (a.value, b.value, c.value) },
            signal: { Signal.combineLatest(a.signal, b.signal, c.signal) })
    }
}
