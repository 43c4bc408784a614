import TetherEngine

/// One change of an observed key path, sent by ``KeyPathObservable/valuesAndChanges(_:options:)``
/// (RAC's `rac_valuesAndChangesForKeyPath:options:observer:`, KVO's change dictionary).
///
/// Which fields are filled depends on the ``ObservationOptions`` asked for, as in KVO: `oldValue` only
/// with `.old`, `newValue` only with `.new`; a prior change (`.prior`) is sent before the set and never
/// carries a new value.
///
/// ```swift
/// final class Account: KeyPathObservable { @Observed var name = "Ann" }
/// let account = Account()
/// account.valuesAndChanges(\.name, options: [.old, .new]).subscribe(next: { change in
///     print(change.oldValue ?? "-", "→", change.newValue ?? "-")
/// })
/// account.name = "Bob"   // prints Ann → Bob
/// ```
public struct Change<Value> {
    /// The value before the change (with `.old`; `nil` for the initial change).
    ///
    /// ```swift
    /// let change = Change(oldValue: 1, newValue: 2, isPrior: false)
    /// if let before = change.oldValue { print("was", before) }
    /// ```
    public var oldValue: Value?
    /// The value after the change (with `.new`; `nil` in a prior change).
    ///
    /// ```swift
    /// let change = Change(oldValue: 1, newValue: 2, isPrior: false)
    /// if let after = change.newValue { print("now", after) }
    /// ```
    public var newValue: Value?
    /// Whether this change was sent before the set happened (with `.prior`).
    ///
    /// ```swift
    /// let change = Change(oldValue: 1, newValue: nil, isPrior: true)
    /// if change.isPrior { print("about to change from", change.oldValue ?? 0) }
    /// ```
    public var isPrior: Bool

    /// Creates a change.
    ///
    /// ```swift
    /// let change = Change(oldValue: 1, newValue: 2, isPrior: false)
    /// ```
    @inlinable
    public init(oldValue: Value?, newValue: Value?, isPrior: Bool) {
        self.oldValue = oldValue
        self.newValue = newValue
        self.isPrior = isPrior
    }
}

extension Change: Sendable where Value: Sendable {}
extension Change: Equatable where Value: Equatable {}
extension Change: Hashable where Value: Hashable {}

extension Change: CustomStringConvertible {
    /// A readable form, e.g. `Change(old: 1, new: 2)` or `Change(prior, old: 1)`.
    ///
    /// ```swift
    /// print(Change(oldValue: 1, newValue: 2, isPrior: false))   // Change(old: 1, new: 2)
    /// ```
    public var description: String {
        var parts: [String] = []
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(oldValue)") }
        if let newValue { parts.append("new: \(newValue)") }
        return "Change(\(parts.joined(separator: ", ")))"
    }
}

/// What ``KeyPathObservable/valuesAndChanges(_:options:)`` sends (KVO's `NSKeyValueObservingOptions`).
///
/// ```swift
/// let options: ObservationOptions = [.initial, .old, .new, .prior]
/// ```
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    ///
    /// ```swift
    /// print(ObservationOptions.prior.rawValue)   // 8
    /// ```
    public let rawValue: Int

    /// Creates options from raw bits.
    ///
    /// ```swift
    /// let options = ObservationOptions(rawValue: 0b11)   // [.initial, .old]
    /// ```
    @inlinable
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Send a change at once, on subscription, with the current value as `newValue` (if `.new`).
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = ""; @Observed var count = 0 }
    /// let model = Model()
    /// model.valuesAndChanges(\.name, options: [.initial, .new])
    /// ```
    public static let initial = ObservationOptions(rawValue: 1 << 0)
    /// Fill `oldValue` with the value before the change.
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = ""; @Observed var count = 0 }
    /// let model = Model()
    /// model.valuesAndChanges(\.name, options: [.old, .new])
    /// ```
    public static let old = ObservationOptions(rawValue: 1 << 1)
    /// Fill `newValue` with the value after the change.
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = ""; @Observed var count = 0 }
    /// let model = Model()
    /// model.valuesAndChanges(\.name, options: .new)
    /// ```
    public static let new = ObservationOptions(rawValue: 1 << 2)
    /// Also send a change before each set, with `isPrior == true` (and `oldValue` if `.old`).
    ///
    /// ```swift
    /// final class Model: KeyPathObservable { @Observed var name = ""; @Observed var count = 0 }
    /// let model = Model()
    /// model.valuesAndChanges(\.name, options: [.prior, .old, .new])
    /// ```
    public static let prior = ObservationOptions(rawValue: 1 << 3)
}
