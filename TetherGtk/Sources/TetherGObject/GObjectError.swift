/// Why a GObject property or signal could not be observed, bound or connected: a typed error at the call,
/// instead of a GLib critical and a silently dead signal.
///
/// ```swift
/// let adjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 10, 1, 1, 0))
/// do {
///     _ = try adjustment.observe(property: "colour", as: String.self)
/// } catch {
///     print(error)   // GtkAdjustment has no property "colour"
/// }
/// ```
public enum GObjectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The object's class has no property with that name.
    case noSuchProperty(type: String, property: String)
    /// The property cannot be read (it is write-only), so it cannot be observed.
    case propertyNotReadable(type: String, property: String)
    /// The property cannot be written (it is read-only or construct-only), so it cannot be bound.
    case propertyNotWritable(type: String, property: String)
    /// The property's type cannot hold the Swift type asked for (e.g. a `gdouble` read as `String`).
    case propertyTypeMismatch(type: String, property: String, propertyType: String, valueType: String)
    /// The object's class has no signal with that name (or the detail is not valid for it).
    case noSuchSignal(type: String, signal: String)
    /// The object does not implement the interface an operation needs (`GtkEditable` for TetherGtk's
    /// `setText(_:)`).
    case notImplementing(type: String, interface: String)

    /// A sentence naming the type and the property or signal.
    ///
    /// ```swift
    /// let error = GObjectError.noSuchSignal(type: "GtkButton", signal: "pressed")
    /// print(error)   // GtkButton has no signal "pressed"
    /// ```
    public var description: String {
        switch self {
        case .noSuchProperty(let type, let property):
            return "\(type) has no property \"\(property)\""
        case .propertyNotReadable(let type, let property):
            return "\(type)'s property \"\(property)\" is not readable"
        case .propertyNotWritable(let type, let property):
            return "\(type)'s property \"\(property)\" is not writable after construction"
        case .propertyTypeMismatch(let type, let property, let propertyType, let valueType):
            return "\(type)'s property \"\(property)\" holds \(propertyType), which \(valueType) cannot represent"
        case .noSuchSignal(let type, let signal):
            return "\(type) has no signal \"\(signal)\""
        case .notImplementing(let type, let interface):
            return "\(type) does not implement \(interface)"
        }
    }
}
