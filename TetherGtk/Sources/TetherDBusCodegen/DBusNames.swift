/// The D-Bus specification's rules for interface and member names, checked before any Swift is written.
enum DBusNames {
    /// An interface name: two or more elements separated by `.`, each `[A-Za-z_][A-Za-z0-9_]*`, at most 255
    /// characters.
    static func checkInterface(_ name: String) throws(DBusCodegenError) {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 255, elements.count >= 2, elements.allSatisfy({ isElement($0) }) else {
            throw .invalidName(kind: "interface", name: name)
        }
    }

    /// A member (method, signal, property) name: `[A-Za-z_][A-Za-z0-9_]*`, at most 255 characters.
    static func checkMember(_ name: String) throws(DBusCodegenError) {
        guard name.utf8.count <= 255, isElement(Substring(name)) else { throw .invalidName(kind: "member", name: name) }
    }

    private static func isElement(_ element: Substring) -> Bool {
        guard let first = element.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return element.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
