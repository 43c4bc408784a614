// TEMPORARY: a local stand-in for Observable's `BindingTarget` marker protocol, which the key-path
// observation work defines. Delete this file when that lands on main.

/// A class whose properties can be bound to signals with `bind(_:to:)` and `<~`.
///
/// Adopt it in any class — it has no requirements:
/// ```swift
/// final class Label: BindingTarget { var text = "" }
/// label.bind(\.text, to: viewModel.title)
/// ```
public protocol BindingTarget: AnyObject {}
