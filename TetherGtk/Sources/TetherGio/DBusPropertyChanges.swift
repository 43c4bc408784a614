/// How a remote property announces its changes — the introspection annotation
/// `org.freedesktop.DBus.Property.EmitsChangedSignal` — and so what
/// ``DBusRemoteObject/property(_:as:changes:)`` sends.
///
/// ```swift
/// let changes = DBusPropertyChanges(annotation: "invalidates")
/// print(changes == .invalidates)   // true
/// ```
public enum DBusPropertyChanges: String, Sendable, Hashable {
    /// `true` (the default): each change is announced with its value in `PropertiesChanged`. The signal
    /// sends the current value, then each change.
    case emitted = "true"
    /// `invalidates`: each change is announced without its value. The signal sends the current value,
    /// then the value fetched again after each announcement.
    case invalidates
    /// `const`: the value never changes while the object exists. The signal reads it once, sends it and
    /// completes.
    case const
    /// `false`: changes are not announced at all. The signal reads the current value once, sends it and
    /// completes; it does not pretend to follow changes (read it again to see a new value).
    case notEmitted = "false"

    /// The annotation's value (`true`, `invalidates`, `const`, `false`); `nil` for any other text.
    ///
    /// ```swift
    /// print(DBusPropertyChanges(annotation: "const") == .const)   // true
    /// ```
    public init?(annotation: String) { self.init(rawValue: annotation) }

    /// Whether the property's signal follows changes after its first value.
    ///
    /// ```swift
    /// print(DBusPropertyChanges.const.isFollowed)   // false
    /// ```
    public var isFollowed: Bool { self == .emitted || self == .invalidates }
}
