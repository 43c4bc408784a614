import CGio

/// A Swift type that crosses to GLib as a `GVariant` — the values of GSettings keys and of D-Bus properties:
/// `Bool` (`b`), `Int32` and `Int` (`i`), `UInt32` (`u`), `Int64` (`x`), `UInt64` (`t`), `Double` (`d`),
/// `String` (`s`) and `[String]` (`as`). A GSettings key or a D-Bus property is only read or written as the
/// type whose ``variantType`` is its type; anything else is a typed error
/// (``GSettingsError/typeMismatch(schema:key:keyType:valueType:)``, ``DBusError/typeMismatch(member:expected:actual:)``).
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

extension Array: GVariantConvertible where Element == String {
    /// `as`.
    ///
    /// ```swift
    /// print([String].variantType)   // as
    /// ```
    public static var variantType: String { "as" }

    /// Reads an `as` variant.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(["a", "b"].makeVariant())!
    /// print([String](variant: variant) ?? [])   // ["a", "b"]
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard g_variant_is_of_type(variant, tether_variant_type_string_array()) != 0 else { return nil }
        var count: gsize = 0
        guard let strings = g_variant_get_strv(variant, &count) else {
            self = []
            return
        }
        defer { g_free(strings) }  // the strings belong to the variant; only the array is ours
        self = (0..<Int(count)).map { String(cString: strings[$0]!) }
    }

    /// A floating `as` variant, or `nil` when a string has a NUL character.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(["en", "fr"].makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? {
        guard !contains(where: { $0.utf8.contains(0) }) else { return nil }
        let copies: [UnsafeMutablePointer<CChar>?] = map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            g_variant_new_strv(buffer.baseAddress, gssize(buffer.count))
        }
    }
}
