/// One keystroke, decoded from the bytes a terminal sends (see ``KeyDecoder``) or named in a script
/// (see ``ScriptStep``).
enum Key: Hashable, Sendable {
    /// A printable character (any Unicode scalar sequence the terminal sent as UTF-8).
    case character(Character)
    case backspace
    case tab
    case shiftTab
    case enter
    case escape
    case up
    case down
    case left
    case right
    /// Ctrl-C: in raw mode the terminal sends byte 3 instead of raising SIGINT.
    case interrupt
    /// Any other control byte or escape sequence, kept for the status line.
    case unknown([UInt8])

    /// The names a script uses after `key` (`key tab`, `key shift-tab`, `key ctrl-c`).
    static let scriptNames: [String: Key] = [
        "backspace": .backspace, "bs": .backspace,
        "tab": .tab,
        "shift-tab": .shiftTab, "backtab": .shiftTab,
        "enter": .enter, "return": .enter,
        "escape": .escape, "esc": .escape,
        "up": .up, "down": .down, "left": .left, "right": .right,
        "ctrl-c": .interrupt,
        "space": .character(" "),
    ]

    /// A short human-readable name, for the status line.
    var label: String {
        switch self {
        case .character(let character): return character == " " ? "space" : String(character)
        case .backspace: return "backspace"
        case .tab: return "tab"
        case .shiftTab: return "shift-tab"
        case .enter: return "enter"
        case .escape: return "esc"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .interrupt: return "ctrl-c"
        case .unknown(let bytes): return bytes.map { String($0, radix: 16) }.joined(separator: " ")
        }
    }
}
