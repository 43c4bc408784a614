/// One complete D-Bus type (a single complete type of a signature): what an argument or a property holds.
///
/// ```swift
/// let type = try DBusType(signature: "a{sv}", member: "Options")
/// print(type == .dictionary(key: .string, value: .variant))   // true
/// print(try type.swiftType(member: "Options"))              // [String: GVariantValue]
/// ```
public indirect enum DBusType: Equatable, Sendable {
    /// `y`: an unsigned byte.
    case byte
    /// `b`: a boolean.
    case boolean
    /// `n`: a signed 16-bit integer.
    case int16
    /// `q`: an unsigned 16-bit integer.
    case uint16
    /// `i`: a signed 32-bit integer.
    case int32
    /// `u`: an unsigned 32-bit integer.
    case uint32
    /// `x`: a signed 64-bit integer.
    case int64
    /// `t`: an unsigned 64-bit integer.
    case uint64
    /// `d`: a double.
    case double
    /// `s`: a UTF-8 string.
    case string
    /// `o`: an object path.
    case objectPath
    /// `g`: a type signature (not supported by the generated code yet).
    case signature
    /// `h`: an index into the message's file descriptors (not supported by the generated code yet).
    case unixFD
    /// `v`: a value of any type.
    case variant
    /// `a` and the element's type: an array.
    case array(DBusType)
    /// `a{` a basic key type and a value type `}`: a dictionary.
    case dictionary(key: DBusType, value: DBusType)
    /// `(` the fields' types `)`: a structure.
    case structure([DBusType])

    /// The deepest nesting D-Bus allows (32 arrays and 32 structures).
    static let maximumDepth = 64

    /// The one complete type `signature` spells.
    ///
    /// - Throws: ``DBusCodegenError/invalidType(member:signature:reason:)`` for an empty signature, an unknown
    ///   type code, a dictionary entry outside an array or with a key that is not a basic type, an empty or
    ///   unclosed structure, nesting deeper than D-Bus allows, or more than one complete type.
    ///
    /// ```swift
    /// print(try DBusType(signature: "(udu)", member: "History"))   // structure([uint32, double, uint32])
    /// ```
    public init(signature: String, member: String) throws(DBusCodegenError) {
        var reader = SignatureReader(codes: Array(signature.utf8), signature: signature, member: member)
        let type = try reader.completeType(depth: 0)
        guard reader.atEnd else { throw reader.failure("it holds more than one complete type") }
        self = type
    }

    /// The type's signature (`a{sv}`).
    ///
    /// ```swift
    /// print(DBusType.array(.objectPath).signature)   // ao
    /// ```
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The Swift type TetherGio reads and writes this type as (`GVariantConvertible`): `UInt32` for `u`,
    /// `DBusObjectPath` for `o`, `GVariantValue` for `v`, `[T]` for arrays, `[K: V]` for dictionaries,
    /// `DBusStruct<…>` for structures.
    ///
    /// - Throws: ``DBusCodegenError/unsupportedType(member:signature:)`` for `h` and `g`, which TetherGio does
    ///   not carry yet.
    ///
    /// ```swift
    /// print(try DBusType.array(.structure([.double, .double])).swiftType(member: "Points"))
    /// // [DBusStruct<Double, Double>]
    /// ```
    public func swiftType(member: String) throws(DBusCodegenError) -> String {
        switch self {
        case .byte: return "UInt8"
        case .boolean: return "Bool"
        case .int16: return "Int16"
        case .uint16: return "UInt16"
        case .int32: return "Int32"
        case .uint32: return "UInt32"
        case .int64: return "Int64"
        case .uint64: return "UInt64"
        case .double: return "Double"
        case .string: return "String"
        case .objectPath: return "DBusObjectPath"
        case .variant: return "GVariantValue"
        case .signature, .unixFD: throw .unsupportedType(member: member, signature: signature)
        case .array(let element): return "[" + (try element.swiftType(member: member)) + "]"
        case .dictionary(let key, let value):
            return "[" + (try key.swiftType(member: member)) + ": " + (try value.swiftType(member: member)) + "]"
        case .structure(let fields):
            var names: [String] = []
            for field in fields { names.append(try field.swiftType(member: member)) }
            return "DBusStruct<" + names.joined(separator: ", ") + ">"
        }
    }

    /// Whether the type is a basic one (a dictionary's key may only be one of these).
    var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }
}

/// Reads complete types off a signature's bytes, left to right.
private struct SignatureReader {
    let codes: [UInt8]
    let signature: String
    let member: String
    var index = 0

    var atEnd: Bool { index == codes.count }

    func failure(_ reason: String) -> DBusCodegenError {
        .invalidType(member: member, signature: signature, reason: reason)
    }

    mutating func completeType(depth: Int) throws(DBusCodegenError) -> DBusType {
        guard depth < DBusType.maximumDepth else { throw failure("it nests deeper than D-Bus allows") }
        guard index < codes.count else {
            throw failure(codes.isEmpty ? "it is empty" : "it ends where a type was expected")
        }
        let code = codes[index]
        index += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            if index < codes.count, codes[index] == UInt8(ascii: "{") {
                index += 1
                let key = try completeType(depth: depth + 1)
                guard key.isBasic else { throw failure("a dictionary's key must be a basic type") }
                guard index == codes.count || codes[index] != UInt8(ascii: "}") else {
                    throw failure("a dictionary entry holds exactly a key and a value, then '}'")
                }
                let value = try completeType(depth: depth + 1)
                guard index < codes.count, codes[index] == UInt8(ascii: "}") else {
                    throw failure("a dictionary entry holds exactly a key and a value, then '}'")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try completeType(depth: depth + 1))
        case UInt8(ascii: "("):
            var fields: [DBusType] = []
            while index < codes.count, codes[index] != UInt8(ascii: ")") {
                fields.append(try completeType(depth: depth + 1))
            }
            guard index < codes.count else { throw failure("a structure is not closed") }
            index += 1
            guard !fields.isEmpty else { throw failure("a structure has no fields") }
            return .structure(fields)
        case UInt8(ascii: "{"): throw failure("a dictionary entry '{…}' may only be an array's element")
        default:
            throw failure("'\(String(decoding: [code], as: UTF8.self))' is not a type code")
        }
    }
}
