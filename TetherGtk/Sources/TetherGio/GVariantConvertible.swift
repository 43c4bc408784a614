import CGio
import TetherGObject

/// A Swift type that crosses to GLib as a `GVariant` — the values of GSettings keys and of D-Bus properties:
/// `Bool` (`b`), `UInt8` (`y`), `Int16` (`n`), `UInt16` (`q`), `Int32` and `Int` (`i`), `UInt32` (`u`),
/// `Int64` (`x`), `UInt64` (`t`), `Double` (`d`), `String` (`s`), ``DBusObjectPath`` (`o`), any value
/// (``GVariantValue``, `v`), arrays of these (`[String]` is `as`, `[UInt8]` is `ay`) and dictionaries
/// (`[String: GVariantValue]` is `a{sv}`, D-Bus's property bags and option maps; `[String: String]` is
/// `a{ss}`). A GSettings key or a D-Bus property is only read or written as the type whose ``variantType``
/// is its type; anything else is a typed error (``GSettingsError/typeMismatch(schema:key:keyType:valueType:)``,
/// ``DBusError/typeMismatch(member:expected:actual:)``), and so is a dictionary entry read as another type
/// (``GVariantError/typeMismatch(key:expected:actual:)``).
///
/// Conform your own types by converting to and from one of these, for example an enum stored as a string:
///
/// ```swift
/// enum Theme: String, GVariantConvertible {
///     case light, dark
///     static var variantType: String { String.variantType }
///     init?(variant: OpaquePointer) { self.init(rawValue: String(variant: variant) ?? "") }
///     func makeVariant() -> OpaquePointer? { rawValue.makeVariant() }
/// }
/// ```
public protocol GVariantConvertible: Equatable, Sendable {
    /// The GVariant type string of the values this type reads and writes (`"b"`, `"i"`, `"as"`…).
    ///
    /// ```swift
    /// print([String].variantType)   // as
    /// ```
    static var variantType: String { get }

    /// Reads the value held by `variant` (a `GVariant *` of type ``variantType``; not consumed), or
    /// `nil` when it cannot.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_int32(7))!
    /// print(Int(variant: variant) ?? 0)   // 7
    /// g_variant_unref(variant)
    /// ```
    init?(variant: OpaquePointer)

    /// A new floating `GVariant *` holding this value, or `nil` when the type cannot represent it (an
    /// `Int` beyond 32 bits).
    ///
    /// ```swift
    /// if let variant = "hello".makeVariant() { g_variant_unref(g_variant_ref_sink(variant)) }
    /// ```
    func makeVariant() -> OpaquePointer?
}

extension Bool: GVariantConvertible {
    /// `b`.
    ///
    /// ```swift
    /// print(Bool.variantType)   // b
    /// ```
    public static var variantType: String { "b" }

    /// Reads a `b` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_boolean(1))!
    /// print(Bool(variant: variant) == true)   // true
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_boolean()) != 0 else { return nil }
        self = g_variant_get_boolean(variant) != 0
    }

    /// A floating `b` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(true.makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_boolean(self ? 1 : 0) }
}

extension Int32: GVariantConvertible {
    /// `i`.
    ///
    /// ```swift
    /// print(Int32.variantType)   // i
    /// ```
    public static var variantType: String { "i" }

    /// Reads an `i` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_int32(-3))!
    /// print(Int32(variant: variant) ?? 0)   // -3
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_int32()) != 0 else { return nil }
        self = g_variant_get_int32(variant)
    }

    /// A floating `i` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(Int32(12).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_int32(self) }
}

extension Int: GVariantConvertible {
    /// `i`: GSettings' integer keys are 32 bits wide.
    ///
    /// ```swift
    /// print(Int.variantType)   // i
    /// ```
    public static var variantType: String { "i" }

    /// Reads an `i` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_int32(640))!
    /// print(Int(variant: variant) ?? 0)   // 640
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard let value = Int32(variant: variant) else { return nil }
        self = Int(value)
    }

    /// A floating `i` variant, or `nil` beyond `Int32`'s range.
    ///
    /// ```swift
    /// print(Int.max.makeVariant() == nil)   // true
    /// ```
    public func makeVariant() -> OpaquePointer? {
        guard let value = Int32(exactly: self) else { return nil }
        return g_variant_new_int32(value)
    }
}

extension UInt32: GVariantConvertible {
    /// `u`.
    ///
    /// ```swift
    /// print(UInt32.variantType)   // u
    /// ```
    public static var variantType: String { "u" }

    /// Reads a `u` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_uint32(70))!
    /// print(UInt32(variant: variant) ?? 0)   // 70
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_uint32()) != 0 else { return nil }
        self = g_variant_get_uint32(variant)
    }

    /// A floating `u` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(UInt32(3).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_uint32(self) }
}

extension Int64: GVariantConvertible {
    /// `x`.
    ///
    /// ```swift
    /// print(Int64.variantType)   // x
    /// ```
    public static var variantType: String { "x" }

    /// Reads an `x` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_int64(-1))!
    /// print(Int64(variant: variant) ?? 0)   // -1
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_int64()) != 0 else { return nil }
        self = Int64(g_variant_get_int64(variant))
    }

    /// A floating `x` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(Int64(1 << 40).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_int64(gint64(self)) }
}

extension UInt64: GVariantConvertible {
    /// `t`.
    ///
    /// ```swift
    /// print(UInt64.variantType)   // t
    /// ```
    public static var variantType: String { "t" }

    /// Reads a `t` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_uint64(5))!
    /// print(UInt64(variant: variant) ?? 0)   // 5
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_uint64()) != 0 else { return nil }
        self = UInt64(g_variant_get_uint64(variant))
    }

    /// A floating `t` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(UInt64.max.makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_uint64(guint64(self)) }
}

extension Double: GVariantConvertible {
    /// `d`.
    ///
    /// ```swift
    /// print(Double.variantType)   // d
    /// ```
    public static var variantType: String { "d" }

    /// Reads a `d` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_double(0.5))!
    /// print(Double(variant: variant) ?? 0)   // 0.5
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_double()) != 0 else { return nil }
        self = g_variant_get_double(variant)
    }

    /// A floating `d` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(1.25.makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_double(self) }
}

extension String: GVariantConvertible {
    /// `s`.
    ///
    /// ```swift
    /// print(String.variantType)   // s
    /// ```
    public static var variantType: String { "s" }

    /// Reads an `s` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_string("tether"))!
    /// print(String(variant: variant) ?? "")   // tether
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_string()) != 0,
            let text = g_variant_get_string(variant, nil)
        else { return nil }
        self = String(cString: text)
    }

    /// A floating `s` variant, or `nil` for a string with a NUL character (GVariant strings cannot
    /// hold one).
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink("dark".makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? {
        guard !utf8.contains(0) else { return nil }
        return g_variant_new_string(self)
    }
}

extension UInt8: GVariantConvertible {
    /// `y`.
    ///
    /// ```swift
    /// print(UInt8.variantType)   // y
    /// ```
    public static var variantType: String { "y" }

    /// Reads a `y` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_byte(2))!
    /// print(UInt8(variant: variant) ?? 0)   // 2
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, "y") else { return nil }
        self = UInt8(g_variant_get_byte(variant))
    }

    /// A floating `y` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(UInt8(2).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_byte(self) }
}

extension Int16: GVariantConvertible {
    /// `n`.
    ///
    /// ```swift
    /// print(Int16.variantType)   // n
    /// ```
    public static var variantType: String { "n" }

    /// Reads a `n` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_int16(-4))!
    /// print(Int16(variant: variant) ?? 0)   // -4
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, "n") else { return nil }
        self = Int16(g_variant_get_int16(variant))
    }

    /// A floating `n` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(Int16(-4).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_int16(self) }
}

extension UInt16: GVariantConvertible {
    /// `q`.
    ///
    /// ```swift
    /// print(UInt16.variantType)   // q
    /// ```
    public static var variantType: String { "q" }

    /// Reads a `q` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_uint16(443))!
    /// print(UInt16(variant: variant) ?? 0)   // 443
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, "q") else { return nil }
        self = UInt16(g_variant_get_uint16(variant))
    }

    /// A floating `q` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(UInt16(443).makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_uint16(self) }
}

/// A D-Bus object path (`o`): NetworkManager's devices and active connections, a media player's track id,
/// the objects a service lists (`ao` is `[DBusObjectPath]`). Made from a string that is a valid path.
///
/// ```swift
/// let device = try DBusObjectPath("/org/freedesktop/NetworkManager/Devices/1")
/// print(device)   // /org/freedesktop/NetworkManager/Devices/1
/// ```
public struct DBusObjectPath: GVariantConvertible, Hashable, CustomStringConvertible {
    /// The path's text.
    ///
    /// ```swift
    /// print(try DBusObjectPath("/org/example").rawValue)   // /org/example
    /// ```
    public let rawValue: String

    /// The object path `path`.
    ///
    /// - Throws: ``DBusError/invalidName(kind:value:)`` when `path` is not a valid object path (it starts
    ///   with `/`, its elements are `[A-Za-z0-9_]`, no trailing `/` except for `/` itself).
    ///
    /// ```swift
    /// let root = try DBusObjectPath("/")
    /// ```
    public init(_ path: String) throws(DBusError) {
        try DBusConnection.check(path, .objectPath)
        rawValue = path
    }

    /// `o`.
    ///
    /// ```swift
    /// print(DBusObjectPath.variantType)   // o
    /// ```
    public static var variantType: String { "o" }

    /// Reads an `o` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_object_path("/org/example"))!
    /// print(DBusObjectPath(variant: variant)?.rawValue ?? "")   // /org/example
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, "o"), let text = g_variant_get_string(variant, nil) else { return nil }
        rawValue = String(cString: text)
    }

    /// A floating `o` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(try DBusObjectPath("/org/example").makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_object_path(rawValue) }

    /// The path's text.
    ///
    /// ```swift
    /// print(try DBusObjectPath("/a/b").description)   // /a/b
    /// ```
    public var description: String { rawValue }
}
