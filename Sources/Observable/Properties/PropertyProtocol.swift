import TetherEngine

/// A value that can be read at any time and observed as a signal of its current value, then its
/// changes: ``MutableProperty`` and the read-only ``Property``.
///
/// ```swift
/// func show(_ title: some PropertyProtocol<String>) {
///     print(title.value)
///     title.signal.subscribe(next: { print("now", $0) })
/// }
/// ```
public protocol PropertyProtocol<Value>: SignalConvertible where Failure == Never {
    /// The type of the value.
    ///
    /// ```swift
    /// func describe<P: PropertyProtocol>(_ p: P) -> String where P.Value == Int { "\(p.value)" }
    /// ```
    associatedtype Value

    /// The current value.
    ///
    /// ```swift
    /// let property = MutableProperty(0)
    /// let now = property.value
    /// ```
    var value: Value { get }
}

extension PropertyProtocol {
    /// A read-only property whose value is `transform` applied to this property's value.
    ///
    /// The transform runs on every read of ``Property/value`` and for every value the derived signal
    /// sends. The derived property keeps this one alive.
    ///
    /// ```swift
    /// let count = MutableProperty(2)
    /// let label = count.map { "\($0) items" }
    /// print(label.value)   // 2 items
    /// ```
    /// Marble: `-1-2-|` → `-a-b-|` (each value transformed)
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Property<NewValue> {
        Property(read: { transform(self.value) }, signal: { self.signal.map(transform) })
    }
}
