import CGio

/// A Swift type that can be read from and written to a `GValue` — how property values cross between
/// GObject and Tether (observing with `notify::`, binding with `g_object_set_property`).
///
/// Conversions always work on a `GValue` initialized to the *property's own* type, so a Swift `Int`
/// reads and writes `gint`, `guint`, `glong`, `gint64`… properties, a `Double` `gdouble` and `gfloat`
/// ones, and an enum adopting ``GEnumConvertible`` a GTK enum property. Conforming types are
/// `Equatable`, so that bindings can skip writing a value the property already has, and their
/// conformances are not isolated to an actor (`SendableMetatype`): conversions run on whatever thread
/// GLib emits `notify` on.
///
/// Conforming types here: `String`, `Bool`, `Int`, `Double`, `Float`, `[String]` (`GStrv`, e.g. a widget's
/// `css-classes`) and every ``GEnumConvertible`` enum.
///
/// ```swift
/// struct Percent: GValueConvertible {
///     var value: Double
///     init(value: Double) { self.value = value }
///     init?(gValue: UnsafePointer<GValue>) {
///         guard let fraction = Double(gValue: gValue) else { return nil }
///         value = fraction * 100
///     }
///     func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool { (value / 100).store(in: gValue) }
///     static func canRepresent(_ type: GType) -> Bool { Double.canRepresent(type) }
/// }
/// ```
public protocol GValueConvertible: Equatable, SendableMetatype {
    /// Reads the value held by `gValue`, or `nil` when its type cannot be represented.
    init?(gValue: UnsafePointer<GValue>)

    /// Stores this value into `gValue`, already initialized to the destination's type; `false` when that
    /// type cannot hold it.
    func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool

    /// Whether values of the GObject type `type` convert to and from this type (checked once, when a
    /// property is observed or bound, so that a mismatch is a typed error at the call).
    static func canRepresent(_ type: GType) -> Bool
}

/// The fundamental type of `type` (`G_TYPE_FUNDAMENTAL`).
@inline(__always)
func fundamental(_ type: GType) -> GType { g_type_fundamental(type) }

extension String: GValueConvertible {
    /// Reads a `gchararray` (a `NULL` string reads as `""`).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_string())
    /// g_value_set_string(&value, "hello")
    /// let text = withUnsafePointer(to: &value) { String(gValue: $0) }   // "hello"
    /// g_value_unset(&value)
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        guard fundamental(tether_value_type(gValue)) == tether_gtype_string() else { return nil }
        self = g_value_get_string(gValue).map { String(cString: $0) } ?? ""
    }

    /// Stores into a `gchararray` value (copied).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_string())
    /// _ = "hello".store(in: &value)
    /// g_value_unset(&value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        guard Self.canRepresent(tether_value_type(gValue)) else { return false }
        g_value_set_string(gValue, self)
        return true
    }

    /// `gchararray` properties (`G_TYPE_STRING`).
    ///
    /// ```swift
    /// String.canRepresent(tether_gtype_string())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool { fundamental(type) == tether_gtype_string() }
}

extension Bool: GValueConvertible {
    /// Reads a `gboolean`.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_boolean())
    /// g_value_set_boolean(&value, 1)
    /// let flag = withUnsafePointer(to: &value) { Bool(gValue: $0) }   // true
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        guard fundamental(tether_value_type(gValue)) == tether_gtype_boolean() else { return nil }
        self = g_value_get_boolean(gValue) != 0
    }

    /// Stores into a `gboolean` value.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_boolean())
    /// _ = true.store(in: &value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        guard Self.canRepresent(tether_value_type(gValue)) else { return false }
        g_value_set_boolean(gValue, self ? 1 : 0)
        return true
    }

    /// `gboolean` properties.
    ///
    /// ```swift
    /// Bool.canRepresent(tether_gtype_boolean())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool { fundamental(type) == tether_gtype_boolean() }
}

extension Int: GValueConvertible {
    /// Reads any integer value: `gint`, `guint`, `glong`, `gulong`, `gint64`, `guint64` (unsigned values
    /// beyond `Int.max` clamp).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_uint())
    /// g_value_set_uint(&value, 7)
    /// let number = withUnsafePointer(to: &value) { Int(gValue: $0) }   // 7
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        switch fundamental(tether_value_type(gValue)) {
        case tether_gtype_int(): self = Int(g_value_get_int(gValue))
        case tether_gtype_uint(): self = Int(g_value_get_uint(gValue))
        case tether_gtype_long(): self = Int(g_value_get_long(gValue))
        case tether_gtype_ulong(): self = Int(clamping: g_value_get_ulong(gValue))
        case tether_gtype_int64(): self = Int(g_value_get_int64(gValue))
        case tether_gtype_uint64(): self = Int(clamping: g_value_get_uint64(gValue))
        default: return nil
        }
    }

    /// Stores into an integer value of any width, clamped to its range (GLib then checks the property's
    /// own bounds).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_int())
    /// _ = 42.store(in: &value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        switch fundamental(tether_value_type(gValue)) {
        case tether_gtype_int(): g_value_set_int(gValue, gint(clamping: self))
        case tether_gtype_uint(): g_value_set_uint(gValue, guint(clamping: self))
        case tether_gtype_long(): g_value_set_long(gValue, glong(clamping: self))
        case tether_gtype_ulong(): g_value_set_ulong(gValue, gulong(clamping: self))
        case tether_gtype_int64(): g_value_set_int64(gValue, gint64(clamping: self))
        case tether_gtype_uint64(): g_value_set_uint64(gValue, guint64(clamping: self))
        default: return false
        }
        return true
    }

    /// Integer properties of any width and signedness.
    ///
    /// ```swift
    /// Int.canRepresent(tether_gtype_int64())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool {
        [
            tether_gtype_int(), tether_gtype_uint(), tether_gtype_long(), tether_gtype_ulong(), tether_gtype_int64(),
            tether_gtype_uint64(),
        ].contains(fundamental(type))
    }
}

extension Double: GValueConvertible {
    /// Reads a `gdouble` or a `gfloat`.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_double())
    /// g_value_set_double(&value, 0.5)
    /// let fraction = withUnsafePointer(to: &value) { Double(gValue: $0) }   // 0.5
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        switch fundamental(tether_value_type(gValue)) {
        case tether_gtype_double(): self = g_value_get_double(gValue)
        case tether_gtype_float(): self = Double(g_value_get_float(gValue))
        default: return nil
        }
    }

    /// Stores into a `gdouble` or a `gfloat` value.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_double())
    /// _ = 0.5.store(in: &value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        switch fundamental(tether_value_type(gValue)) {
        case tether_gtype_double(): g_value_set_double(gValue, self)
        case tether_gtype_float(): g_value_set_float(gValue, Float(self))
        default: return false
        }
        return true
    }

    /// `gdouble` and `gfloat` properties.
    ///
    /// ```swift
    /// Double.canRepresent(tether_gtype_float())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool {
        fundamental(type) == tether_gtype_double() || fundamental(type) == tether_gtype_float()
    }
}

extension Float: GValueConvertible {
    /// Reads a `gfloat` or a `gdouble`.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_float())
    /// g_value_set_float(&value, 0.25)
    /// let fraction = withUnsafePointer(to: &value) { Float(gValue: $0) }   // 0.25
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        guard let double = Double(gValue: gValue) else { return nil }
        self = Float(double)
    }

    /// Stores into a `gfloat` or a `gdouble` value.
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, tether_gtype_float())
    /// _ = Float(0.25).store(in: &value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool { Double(self).store(in: gValue) }

    /// `gfloat` and `gdouble` properties.
    ///
    /// ```swift
    /// Float.canRepresent(tether_gtype_double())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool { Double.canRepresent(type) }
}

extension Array: GValueConvertible where Element == String {
    /// Reads a `GStrv` (a `NULL`-terminated string array, e.g. a widget's `css-classes`).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, g_strv_get_type())
    /// _ = ["suggested-action"].store(in: &value)
    /// let classes = withUnsafePointer(to: &value) { [String](gValue: $0) }   // ["suggested-action"]
    /// g_value_unset(&value)
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        guard tether_value_type(gValue) == g_strv_get_type() else { return nil }
        var strings: [String] = []
        if let vector = g_value_get_boxed(gValue)?.assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self) {
            var index = 0
            while let string = vector[index] {
                strings.append(String(cString: string))
                index += 1
            }
        }
        self = strings
    }

    /// Stores into a `GStrv` value (copied).
    ///
    /// ```swift
    /// var value = GValue()
    /// g_value_init(&value, g_strv_get_type())
    /// _ = ["error"].store(in: &value)
    /// g_value_unset(&value)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        guard Self.canRepresent(tether_value_type(gValue)) else { return false }
        let vector = UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>.allocate(capacity: count + 1)
        defer { vector.deallocate() }
        for (index, string) in enumerated() { vector[index] = g_strdup(string) }
        vector[count] = nil
        // g_value_set_boxed copies the vector; free our copy's strings afterwards.
        g_value_set_boxed(gValue, vector)
        for index in 0..<count { g_free(vector[index]) }
        return true
    }

    /// `GStrv` properties.
    ///
    /// ```swift
    /// [String].canRepresent(g_strv_get_type())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool { type == g_strv_get_type() }
}

/// A Swift enum mirroring a GLib enum type, read and written by its raw value — for GTK's enum
/// properties (`GtkAlign`, `GtkJustification`, …). Adopt it with the C values as raw values.
///
/// ```swift
/// enum Justification: Int32, GEnumConvertible {
///     case left = 0, right = 1, center = 2, fill = 3   // GtkJustification
/// }
/// let label = GObjectHandle(sinking: gtk_label_new("Hi"))
/// try label.set(property: "justify", to: Justification.center)
/// ```
public protocol GEnumConvertible: GValueConvertible, RawRepresentable where RawValue == Int32 {}

extension GEnumConvertible {
    /// Reads an enum value by its raw value (`nil` for a value this enum has no case for).
    ///
    /// ```swift
    /// enum Justification: Int32, GEnumConvertible { case left, right, center, fill }
    /// let label = GObjectHandle(sinking: gtk_label_new("Hi"))
    /// let justify = try label.value(of: "justify", as: Justification.self)   // .left
    /// ```
    public init?(gValue: UnsafePointer<GValue>) {
        guard fundamental(tether_value_type(gValue)) == tether_gtype_enum() else { return nil }
        self.init(rawValue: g_value_get_enum(gValue))
    }

    /// Stores the raw value into an enum value.
    ///
    /// ```swift
    /// enum Justification: Int32, GEnumConvertible { case left, right, center, fill }
    /// let label = GObjectHandle(sinking: gtk_label_new("Hi"))
    /// try label.set(property: "justify", to: Justification.fill)
    /// ```
    public func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool {
        guard Self.canRepresent(tether_value_type(gValue)) else { return false }
        g_value_set_enum(gValue, rawValue)
        return true
    }

    /// GLib enum properties (any `G_TYPE_ENUM` type).
    ///
    /// ```swift
    /// enum Justification: Int32, GEnumConvertible { case left, right, center, fill }
    /// Justification.canRepresent(gtk_justification_get_type())   // true
    /// ```
    public static func canRepresent(_ type: GType) -> Bool { fundamental(type) == tether_gtype_enum() }
}
