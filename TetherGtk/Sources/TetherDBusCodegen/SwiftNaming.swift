/// Swift names for D-Bus names: `TimeToEmpty` → `timeToEmpty`, `GetDevices` → `getDevices`,
/// `org.freedesktop.UPower.Device` → `UPowerDevice`, `specific_object` → `specificObject`; Swift keywords
/// in backticks, and clashes within one scope made unique.
///
/// ```swift
/// print(SwiftNaming.lowerCamel("TimeToEmpty"))              // timeToEmpty
/// print(SwiftNaming.typeName(interface: "org.freedesktop.UPower.Device"))   // UPowerDevice
/// ```
public enum SwiftNaming {
    /// `name` in lowerCamelCase: `_`, `-` and spaces separate words; a leading run of capitals is lowered
    /// (`DHCP4Config` → `dhcp4Config`, `URLPath` → `urlPath`); a name that would start with a digit gets
    /// `_`. Not yet escaped (see ``identifier(_:)``).
    ///
    /// ```swift
    /// print(SwiftNaming.lowerCamel("HwAddress"), SwiftNaming.lowerCamel("specific_object"))   // hwAddress specificObject
    /// ```
    public static func lowerCamel(_ name: String) -> String {
        let words = name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map {
            $0.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }.filter { !$0.isEmpty }
        guard let firstWord = words.first else { return "_" }
        var characters = Array(firstWord)
        var run = 0
        while run < characters.count, characters[run].isUppercase { run += 1 }
        if run > 1, run < characters.count, characters[run].isLowercase { run -= 1 }
        for index in 0..<run { characters[index] = Character(characters[index].lowercased()) }
        let result = String(characters) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if let first = result.first, first.isNumber { return "_" + result }
        return result
    }

    /// `name` in UpperCamelCase: words separated by `_`, `-`, `.` or spaces, each with its first letter
    /// raised; characters Swift identifiers cannot hold are dropped.
    ///
    /// ```swift
    /// print(SwiftNaming.upperCamel("state_changed"))   // StateChanged
    /// ```
    public static func upperCamel(_ name: String) -> String {
        var result = ""
        for word in name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let kept = word.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            guard let first = kept.first else { continue }
            result += first.uppercased() + kept.dropFirst()
        }
        return result
    }

    /// The Swift type name of an interface: its name without the reverse-DNS domain (the first two
    /// elements, when more follow), in UpperCamelCase — `org.freedesktop.NetworkManager.Device.Wired` →
    /// `NetworkManagerDeviceWired`, `org.freedesktop.DBus` → `OrgFreedesktopDBus`.
    ///
    /// ```swift
    /// print(SwiftNaming.typeName(interface: "org.freedesktop.NetworkManager"))   // NetworkManager
    /// ```
    public static func typeName(interface: String) -> String {
        let elements = interface.split(separator: ".")
        let kept = elements.count > 2 ? elements.dropFirst(2) : elements[...]
        let name = kept.map { upperCamel(String($0)) }.joined()
        guard let first = name.first, !first.isNumber else { return "_" + name }
        return swiftKeywords.contains(name) || reservedTypeNames.contains(name) ? name + "Interface" : name
    }

    /// `name` usable as a Swift identifier: Swift's keywords in backticks (`` `default` ``), and the few that
    /// backticks do not make usable everywhere (`self`, `Type`, `init`…) with `_` after them.
    ///
    /// ```swift
    /// print(SwiftNaming.identifier("protocol"), SwiftNaming.identifier("self"))   // `protocol` self_
    /// ```
    public static func identifier(_ name: String) -> String {
        if unusableEvenQuoted.contains(name) { return name + "_" }
        return swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    /// Swift's keywords, which need backticks as identifiers.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "_", "Protocol", "Type",
    ]

    /// Names that stay awkward even in backticks (member lookup `.self`, `.Type`, `init`'s special role).
    static let unusableEvenQuoted: Set<String> = [
        "self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "_",
    ]

    /// Type names the generated code relies on, which an interface's name must not shadow.
    static let reservedTypeNames: Set<String> = [
        "Signal", "Command", "DBusConnection", "DBusError", "DBusRemoteObject", "DBusStruct", "DBusObjectPath",
        "GVariantValue", "String", "Bool", "Double", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
        "UInt64", "Never", "Void", "Disposable", "ChannelTerminal", "SignalConvertible", "Sendable", "Equatable",
        "Duration",
    ]
}

/// The names already taken in one Swift scope; each new one is made unique with a suffix.
struct NameScope {
    private var taken: Set<String>

    init(reserved: Set<String> = []) { taken = reserved }

    /// `base` if it is free, else `base` + `suffix`, else with a number: the unescaped name, now taken.
    mutating func claim(_ base: String, orWith suffix: String) -> String {
        var candidate = base
        if taken.contains(candidate) { candidate = base + suffix }
        var number = 2
        while taken.contains(candidate) {
            candidate = base + suffix + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Whether `name` is taken.
    func contains(_ name: String) -> Bool { taken.contains(name) }
}
