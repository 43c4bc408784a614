import TetherEngine

/// A class that bindings can write into: adopt it (it has no requirements) to get `bind(\.property, to:)`.
///
/// Swift has no `extension AnyObject`, so the `Binding` module hangs `bind` on this marker protocol.
/// ``KeyPathObservable`` refines it, so every observable class can be bound to as well. A binding never
/// keeps its target alive.
///
/// ```swift
/// final class Label: BindingTarget {
///     var text = ""
/// }
/// let label = Label()
/// label.bind(\.text, to: Signal(value: "Welcome"))   // from the Binding module
/// ```
public protocol BindingTarget: AnyObject {}
