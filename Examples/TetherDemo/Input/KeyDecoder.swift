/// Turns the raw bytes a terminal in raw mode sends into ``Key``s.
///
/// Bytes arrive in chunks of any size (one `read` each), so a UTF-8 character or an escape sequence
/// may be split between two chunks: the decoder keeps the unfinished tail for the next chunk. An ESC
/// byte that ends a chunk on its own is the Esc key (terminals send a whole sequence in one write).
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode(Array("hé\u{1B}[A\t".utf8))   // [.character("h"), .character("é"), .up, .tab]
/// ```
struct KeyDecoder {
    private var pending: [UInt8] = []

    mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(in: pending[index...]) else { break }  // incomplete
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at the start of `bytes` and how many bytes it takes; `nil` when more bytes are needed.
    /// A `nil` key with a length means "skip these bytes" (an invalid UTF-8 byte).
    private static func key(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            return escapeSequence(in: bytes)
        case 0x03:
            return (.interrupt, 1)
        case 0x09:
            return (.tab, 1)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x00..<0x20:
            return (.unknown([first]), 1)
        case 0x20..<0x80:
            return (.character(Character(Unicode.Scalar(first))), 1)
        default:
            return utf8Character(in: bytes)
        }
    }

    private static func escapeSequence(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return (.escape, 1) }  // a lone ESC at the end of a chunk
        let second = bytes[start + 1]
        guard second == UInt8(ascii: "[") || second == UInt8(ascii: "O") else {
            return (.escape, 1)  // Alt+key or a bare Esc followed by typing: Esc, then the rest
        }
        // CSI / SS3: parameters and intermediates, then a final byte in 0x40...0x7E.
        var index = start + 2
        while index < bytes.endIndex {
            let byte = bytes[index]
            if (0x40...0x7E).contains(byte) {
                let length = index - start + 1
                let sequence = Array(bytes[start...index])
                return (named(sequence), length)
            }
            index += 1
        }
        return nil  // unfinished: wait for the next chunk
    }

    private static func named(_ sequence: [UInt8]) -> Key {
        switch sequence.dropFirst(2).map({ Character(Unicode.Scalar($0)) }).reduce(into: "", { $0.append($1) }) {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "Z": return .shiftTab
        default: return .unknown(sequence)
        }
    }

    private static func utf8Character(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)  // a continuation byte or an invalid lead byte: skip it
        }
        guard bytes.count >= length else { return nil }
        let encoded = bytes.prefix(length)
        guard let string = String(validating: encoded, as: UTF8.self), let character = string.first else {
            return (nil, 1)
        }
        return (.character(character), length)
    }
}
