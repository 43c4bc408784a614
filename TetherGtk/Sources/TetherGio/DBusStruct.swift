import CGio
import TetherGObject

/// A D-Bus structure (`(…)`): its fields, in order, typed — UPower's history entries `(udu)` are
/// `DBusStruct<UInt32, Double, UInt32>`, NetworkManager's `(uu)` `DBusStruct<UInt32, UInt32>`, and an array
/// of structures (`a(dd)`) an array of these. The types that `tether-dbus-codegen` generates use it for every
/// structure in an interface.
///
/// ```swift
/// let point = DBusStruct(1.5, 2.0)
/// print(DBusStruct<Double, Double>.variantType)   // (dd)
/// print(point.fields.0, point.fields.1)             // 1.5 2.0
/// ```
public struct DBusStruct<each Field: GVariantConvertible>: GVariantConvertible {
    /// The fields' values, in order.
    ///
    /// ```swift
    /// let entry = DBusStruct(UInt32(1_700_000_000), 87.5, UInt32(2))
    /// let (time, percentage, state) = entry.fields
    /// print(time, percentage, state)   // 1700000000 87.5 2
    /// ```
    public let fields: (repeat each Field)

    /// The structure of these fields.
    ///
    /// ```swift
    /// let pair = DBusStruct("eth0", UInt32(3))
    /// ```
    public init(_ fields: repeat each Field) { self.fields = (repeat each fields) }

    /// `(`, the fields' types, `)`: `(dd)` for `DBusStruct<Double, Double>`.
    ///
    /// ```swift
    /// print(DBusStruct<String, [String: GVariantValue]>.variantType)   // (sa{sv})
    /// ```
    public static var variantType: String {
        var type = "("
        for field in repeat (each Field).self { type += field.variantType }
        return type + ")"
    }

    /// Reads a structure variant whose fields are of these types.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(DBusStruct(UInt32(1), UInt32(2)).makeVariant())!
    /// print(DBusStruct<UInt32, UInt32>(variant: variant)?.fields.1 ?? 0)   // 2
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, Self.variantType),
            let fields = DBusConnection.arguments(variant, as: repeat (each Field).self)
        else { return nil }
        self.fields = (repeat each fields)
    }

    /// A floating structure variant, or `nil` when a field cannot be represented (a string with a NUL
    /// character).
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(DBusStruct("a", true).makeVariant())!   // ('a', true)
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? { makeTuple(repeat each fields) }

    /// Whether the two structures' fields are equal, one by one.
    ///
    /// ```swift
    /// print(DBusStruct(1.0, 2.0) == DBusStruct(1.0, 2.0))   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        for (left, right) in repeat (each lhs.fields, each rhs.fields) {
            if left != right { return false }
        }
        return true
    }
}

/// A floating tuple variant of the values, or `nil` (nothing left floating) when one cannot be represented.
func makeTuple<each Value: GVariantConvertible>(_ values: repeat each Value) -> OpaquePointer? {
    var children: [OpaquePointer?] = []
    var representable = true
    for value in repeat each values {
        if let variant = value.makeVariant() { children.append(variant) } else { representable = false }
    }
    guard representable else {
        for child in children { g_variant_unref(g_variant_ref_sink(child)) }
        return nil
    }
    return g_variant_new_tuple(&children, gsize(children.count))
}
