/// The handful of ANSI/VT100 escape sequences the demo writes.
enum ANSI {
    static let escape = "\u{1B}["
    static let enterAlternateScreen = escape + "?1049h"
    static let leaveAlternateScreen = escape + "?1049l"
    static let hideCursor = escape + "?25l"
    static let showCursor = escape + "?25h"
    static let clearScreen = escape + "2J"
    static let home = escape + "H"
    static let clearToEndOfLine = escape + "K"
    static let reset = escape + "0m"
    /// Turns off line wrapping, so a line that exactly fills the width never scrolls the screen.
    static let disableAutowrap = escape + "?7l"
    static let enableAutowrap = escape + "?7h"

    /// Moves the cursor to a 0-based row and column.
    static func moveTo(row: Int, column: Int = 0) -> String {
        escape + "\(row + 1);\(column + 1)H"
    }

    /// The SGR sequence that selects `style` from the default style.
    static func select(_ style: Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.inverse { codes.append("7") }
        if let foreground = style.foreground { codes.append("\(30 + Int(foreground.rawValue))") }
        if let background = style.background { codes.append("\(40 + Int(background.rawValue))") }
        return escape + codes.joined(separator: ";") + "m"
    }
}
