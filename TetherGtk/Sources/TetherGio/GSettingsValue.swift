import CGio

/// A Swift type a GSettings key can hold, through GVariant: `Bool` (`b`), `Int32` and `Int` (`i`),
/// `Double` (`d`), `String` (`s`) and `[String]` (`as`). A key is only read or written as the type whose
/// ``variantType`` is the key's type in the schema; anything else is a ``GSettingsError/typeMismatch(schema:key:keyType:valueType:)``.
///
/// Conform your own types by converting to and from one of these, for example an enum stored as a string:
///
/// ```swift
/// enum Theme: String, GSettingsValue {
///     case light, dark
///     static var variantType: String { String.variantType }
///     init?(variant: OpaquePointer) { self.init(rawValue: String(variant: variant) ?? "") }
///     func makeVariant() -> OpaquePointer? { rawValue.makeVariant() }
/// }
/// ```
public protocol GSettingsValue: Equatable, Sendable {
    /// The GVariant type string of the keys this type reads and writes (`"b"`, `"i"`, `"as"`…).
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

extension Bool: GSettingsValue {
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

extension Int32: GSettingsValue {
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

extension Int: GSettingsValue {
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

extension Double: GSettingsValue {
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

extension String: GSettingsValue {
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

extension Array: GSettingsValue where Element == String {
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
