import CGio
import TetherGObject

/// A GVariant of any type, held as it came — the values of an `a{sv}` dictionary (D-Bus's property bags,
/// option maps, MPRIS's `Metadata`, NetworkManager's settings), a `v` property, or anything Tether has no
/// Swift type for. Read it as the type you expect with ``get(_:)``, which throws a typed error when it is
/// another.
///
/// ```swift
/// let metadata: [String: GVariantValue] = [
///     "xesam:title": GVariantValue("Blue in Green")!, "mpris:length": GVariantValue(Int64(337_000_000))!,
/// ]
/// let title = try metadata.value("xesam:title", as: String.self)         // "Blue in Green"
/// let length = try metadata["mpris:length"]?.get(Int64.self)             // 337000000
/// print(metadata["mpris:length"]!.typeString)                            // x
/// ```
public struct GVariantValue: GVariantConvertible, CustomStringConvertible {
    let box: VariantBox

    /// The value of a Swift value, or `nil` when its type cannot represent it (an `Int` beyond 32 bits, a
    /// string with a NUL character).
    ///
    /// ```swift
    /// let volume = GVariantValue(0.8)!
    /// print(volume.typeString)   // d
    /// ```
    public init?<Value: GVariantConvertible>(_ value: Value) {
        guard let variant = value.makeVariant() else { return nil }
        box = VariantBox(taking: variant)
    }

    /// The value written in GVariant's text format (`g_variant_parse`): `"<'text'>"`, `"uint32 3"`,
    /// `"{'a': <1>}"` — as `gdbus` and `gsettings` print them.
    ///
    /// - Throws: ``GVariantError/invalidText(_:message:)`` when the text is not a GVariant.
    ///
    /// ```swift
    /// let options = try GVariantValue(parsing: "{'reason': <'update'>, 'attempt': <uint32 2>}")
    /// print(options.typeString)   // a{sv}
    /// ```
    public init(parsing text: String) throws(GVariantError) {
        var error: UnsafeMutablePointer<GError>?
        guard let variant = g_variant_parse(nil, text, nil, nil, &error) else {
            throw .invalidText(text, message: DBusConnection.consume(error))
        }
        box = VariantBox(taking: variant)
    }

    /// `v`: a D-Bus property or argument of this type holds any value.
    ///
    /// ```swift
    /// print(GVariantValue.variantType)   // v
    /// ```
    public static var variantType: String { "v" }

    /// Holds `variant` as it is — or, for a `v` (a variant in a variant, as in `a{sv}`), the value inside.
    /// Never `nil`.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(g_variant_new_uint32(3))!
    /// print(GVariantValue(variant: variant)!.typeString)   // u
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        if strcmp(g_variant_get_type_string(variant), "v") == 0 {
            box = VariantBox(taking: g_variant_get_variant(variant))
        } else {
            box = VariantBox(taking: g_variant_ref(variant))
        }
    }

    /// A new floating `v` variant boxing the value.
    ///
    /// ```swift
    /// let boxed = g_variant_ref_sink(GVariantValue(true)!.makeVariant())!
    /// g_variant_unref(boxed)
    /// ```
    public func makeVariant() -> OpaquePointer? { g_variant_new_variant(box.variant) }

    /// The GVariant type string of the value held (`s`, `u`, `a{sv}`).
    ///
    /// ```swift
    /// print(GVariantValue(["a", "b"])!.typeString)   // as
    /// ```
    public var typeString: String { String(cString: g_variant_get_type_string(box.variant)) }

    /// The value as `Value`.
    ///
    /// - Throws: ``GVariantError/typeMismatch(key:expected:actual:)`` (with no key) when it has another
    ///   type.
    ///
    /// ```swift
    /// let count = GVariantValue(UInt32(3))!
    /// print(try count.get(UInt32.self))   // 3
    /// do { _ = try count.get(String.self) } catch { print(error) }   // … has the type 'u', not 's'
    /// ```
    public func get<Value: GVariantConvertible>(_ type: Value.Type = Value.self) throws(GVariantError) -> Value {
        guard let value = Value(variant: box.variant) else {
            throw .typeMismatch(key: nil, expected: Value.variantType, actual: typeString)
        }
        return value
    }

    /// The value in GVariant's text format, with its type where the text alone would not say it
    /// (`uint32 3`, `'text'`, `{'a': <1>}`).
    ///
    /// ```swift
    /// print(GVariantValue(UInt32(3))!)   // uint32 3
    /// ```
    public var description: String {
        guard let text = g_variant_print(box.variant, 1) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Whether both hold the same type and value (`g_variant_equal`).
    ///
    /// ```swift
    /// print(GVariantValue("a")! == GVariantValue("a")!)   // true
    /// ```
    public static func == (lhs: GVariantValue, rhs: GVariantValue) -> Bool {
        g_variant_equal(UnsafeRawPointer(lhs.box.variant), UnsafeRawPointer(rhs.box.variant)) != 0
    }
}

/// A reference to an immutable GVariant, dropped with the box.
final class VariantBox: @unchecked Sendable {
    // Safety: a GVariant is immutable once made, and its reference count is atomic; `variant` is never
    // reassigned.
    let variant: OpaquePointer

    /// Takes ownership of a reference to `variant`: a floating one (sunk) or a full one.
    init(taking variant: OpaquePointer) { self.variant = g_variant_take_ref(variant) }

    deinit { g_variant_unref(variant) }
}

/// Why a ``GVariantValue`` or an entry of an `a{sv}` dictionary could not be read as the type asked for.
///
/// ```swift
/// let properties: [String: GVariantValue] = ["Volume": GVariantValue(0.5)!]
/// do {
///     _ = try properties.value("Volume", as: Int32.self)
/// } catch .typeMismatch(let key, let expected, let actual) {
///     print("\(key ?? "the value") is '\(actual)', not '\(expected)'")
/// } catch {
///     print(error)   // missingKey
/// }
/// ```
public enum GVariantError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value (of the dictionary entry `key`, when there is one) has the GVariant type `actual`, not
    /// `expected`, the type of the Swift type asked for.
    case typeMismatch(key: String?, expected: String, actual: String)
    /// The dictionary has no entry for this key.
    case missingKey(String)
    /// The text is not a GVariant in GVariant's text format (`message` is GLib's explanation).
    case invalidText(String, message: String)

    /// A sentence naming the key and the types.
    ///
    /// ```swift
    /// print(GVariantError.missingKey("Volume"))   // the dictionary has no entry 'Volume'
    /// ```
    public var description: String {
        switch self {
        case .typeMismatch(let key?, let expected, let actual):
            "the entry '\(key)' has the GVariant type '\(actual)', not '\(expected)'"
        case .typeMismatch(nil, let expected, let actual):
            "the value has the GVariant type '\(actual)', not '\(expected)'"
        case .missingKey(let key): "the dictionary has no entry '\(key)'"
        case .invalidText(let text, let message): "'\(text)' is not a GVariant: \(message)"
        }
    }
}

extension Dictionary where Key == String, Value == GVariantValue {
    /// The entry `key` of an `a{sv}` dictionary as `Type`.
    ///
    /// - Throws: ``GVariantError/missingKey(_:)`` when there is no such entry,
    ///   ``GVariantError/typeMismatch(key:expected:actual:)`` when it has another type.
    ///
    /// ```swift
    /// let options: [String: GVariantValue] = ["timeout": GVariantValue(UInt32(30))!]
    /// let timeout = try options.value("timeout", as: UInt32.self)   // 30
    /// ```
    public func value<Type: GVariantConvertible>(_ key: String, as type: Type.Type = Type.self)
        throws(GVariantError) -> Type
    {
        guard let entry = self[key] else { throw .missingKey(key) }
        guard let value = Type(variant: entry.box.variant) else {
            throw .typeMismatch(key: key, expected: Type.variantType, actual: entry.typeString)
        }
        return value
    }
}

extension Array: GVariantConvertible where Element: GVariantConvertible {
    /// `a` and the element's type: `as` for `[String]`, `ay` for `[UInt8]`, `aa{sv}` for
    /// `[[String: GVariantValue]]`.
    ///
    /// ```swift
    /// print([String].variantType, [UInt8].variantType)   // as ay
    /// ```
    public static var variantType: String { "a" + Element.variantType }

    /// Reads an array variant whose elements are `Element`s.
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(["a", "b"].makeVariant())!
    /// print([String](variant: variant) ?? [])   // ["a", "b"]
    /// g_variant_unref(variant)
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, Self.variantType) else { return nil }
        var elements: [Element] = []
        let count = Int(g_variant_n_children(variant))
        elements.reserveCapacity(count)
        for index in 0..<count {
            let child = g_variant_get_child_value(variant, gsize(index))!
            defer { g_variant_unref(child) }
            guard let element = Element(variant: child) else { return nil }
            elements.append(element)
        }
        self = elements
    }

    /// A floating array variant, or `nil` when an element cannot be represented (a string with a NUL
    /// character).
    ///
    /// ```swift
    /// let variant = g_variant_ref_sink(["en", "fr"].makeVariant())!
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? {
        var children: [OpaquePointer?] = []
        children.reserveCapacity(count)
        for element in self {
            guard let child = element.makeVariant() else {
                for made in children { g_variant_unref(g_variant_ref_sink(made)) }
                return nil
            }
            children.append(child)
        }
        return makeContainer(elementType: Element.variantType, children)
    }
}

extension Dictionary: GVariantConvertible where Key: GVariantConvertible, Value: GVariantConvertible {
    /// `a{` the key's and the value's types `}`: `a{sv}` for `[String: GVariantValue]`, `a{ss}` for
    /// `[String: String]`. A key's type must be a basic one (a number, a string, an object path).
    ///
    /// ```swift
    /// print([String: GVariantValue].variantType)   // a{sv}
    /// ```
    public static var variantType: String { "a{" + Key.variantType + Value.variantType + "}" }

    /// Reads a dictionary variant whose entries are `Key`s and `Value`s (of an `a{sv}`, the values are
    /// those the variants hold); the last of repeated keys wins.
    ///
    /// ```swift
    /// let options = try GVariantValue(parsing: "{'reason': <'update'>}")
    /// let dictionary = try options.get([String: GVariantValue].self)
    /// print(try dictionary.value("reason", as: String.self))   // update
    /// ```
    public init?(variant: OpaquePointer) {
        guard variantHasType(variant, Self.variantType) else { return nil }
        let count = Int(g_variant_n_children(variant))
        var entries: [Key: Value] = Dictionary(minimumCapacity: count)
        for index in 0..<count {
            let entry = g_variant_get_child_value(variant, gsize(index))!
            let key = g_variant_get_child_value(entry, 0)!
            let value = g_variant_get_child_value(entry, 1)!
            defer {
                g_variant_unref(value)
                g_variant_unref(key)
                g_variant_unref(entry)
            }
            guard let swiftKey = Key(variant: key), let swiftValue = Value(variant: value) else { return nil }
            entries[swiftKey] = swiftValue
        }
        self = entries
    }

    /// A floating dictionary variant, or `nil` when the key's type is not a basic one or an entry cannot
    /// be represented.
    ///
    /// ```swift
    /// let hints: [String: GVariantValue] = ["urgency": GVariantValue(UInt8(2))!]
    /// let variant = g_variant_ref_sink(hints.makeVariant())!   // a{sv}
    /// g_variant_unref(variant)
    /// ```
    public func makeVariant() -> OpaquePointer? {
        guard Key.variantType.utf8.count == 1, Key.variantType != "v",
            g_variant_type_string_is_valid(Self.variantType) != 0
        else {
            return nil
        }
        var children: [OpaquePointer?] = []
        children.reserveCapacity(count)
        for (key, value) in self {
            guard let keyVariant = key.makeVariant() else { break }
            guard let valueVariant = value.makeVariant() else {
                g_variant_unref(g_variant_ref_sink(keyVariant))
                break
            }
            children.append(g_variant_new_dict_entry(keyVariant, valueVariant))
        }
        guard children.count == count else {
            for made in children { g_variant_unref(g_variant_ref_sink(made)) }
            return nil
        }
        return makeContainer(elementType: "{" + Key.variantType + Value.variantType + "}", children)
    }
}

/// Whether `variant`'s type is exactly `typeString` (a definite type).
func variantHasType(_ variant: OpaquePointer, _ typeString: String) -> Bool {
    strcmp(g_variant_get_type_string(variant), typeString) == 0
}

/// A floating array of `children` (floating variants, consumed) whose elements have the type `elementType`.
private func makeContainer(elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer? {
    guard g_variant_type_string_is_valid(elementType) != 0 else {
        for made in children { g_variant_unref(g_variant_ref_sink(made)) }
        return nil
    }
    let type = g_variant_type_new(elementType)
    defer { g_variant_type_free(type) }
    var children = children
    return g_variant_new_array(type, &children, gsize(children.count))
}
