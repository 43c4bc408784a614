/// The eight ANSI colours.
enum Color: UInt8, Sendable {
    case black = 0
    case red, green, yellow, blue, magenta, cyan, white
}

/// How a run of text looks in a terminal. Plain-text output (script mode) ignores it, so anything a
/// test or a reader must see is also spelled out in the text itself.
struct Style: Hashable, Sendable {
    var foreground: Color?
    var background: Color?
    var bold = false
    var dim = false
    var inverse = false

    static let plain = Style()
    static let bold = Style(bold: true)
    static let dim = Style(dim: true)
    static let inverse = Style(inverse: true)
    static func foreground(_ color: Color, bold: Bool = false) -> Style {
        Style(foreground: color, bold: bold)
    }
}

/// A run of text in one style.
struct Span: Hashable, Sendable {
    var text: String
    var style: Style

    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One row of the screen: styled spans, at most the frame's width in columns.
///
/// Columns are counted in `Character`s: the demo's own text and corpus are single-width; a wide
/// (CJK) character typed into a field may shift the rest of its row by one column.
struct Line: Hashable, Sendable {
    var spans: [Span] = []
    /// Whether the renderer may break this line at spaces when the terminal is narrower than it (prose:
    /// yes; a form field or a button, whose columns mean something: no, it is cut instead).
    var wraps = true

    init(_ spans: [Span] = []) {
        self.spans = spans
    }

    init(_ text: String, _ style: Style = .plain) {
        spans = [Span(text, style)]
    }

    var text: String { spans.map(\.text).joined() }
    var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    static func + (lhs: Line, rhs: Line) -> Line {
        var line = Line(lhs.spans + rhs.spans)
        line.wraps = lhs.wraps && rhs.wraps
        return line
    }

    mutating func append(_ text: String, _ style: Style = .plain) {
        spans.append(Span(text, style))
    }

    /// The line broken at spaces into lines of at most `width` columns, styles kept. Continuation lines
    /// start with the original's indentation (its leading spaces), so wrapped text stays in its column;
    /// the spaces at a break are dropped. A word longer than a whole line is cut (the only place a word
    /// is split). A line that fits, or that does not ``wraps``, is returned as is.
    func wrapped(to width: Int) -> [Line] {
        guard wraps, width > 0, self.width > width else { return [self] }
        let cells = spans.flatMap { span in span.text.map { (character: $0, style: span.style) } }
        let indent = min(cells.prefix(while: { $0.character == " " }).count, width / 2)
        var lines: [Line] = []
        var start = 0
        var room = width
        var prefix: [(character: Character, style: Style)] = []
        while start < cells.count {
            var end = cells.count
            if cells.count - start > room {
                // The last space within reach (a space right after the room counts: the word fits).
                let limit = start + room
                var breakAt = limit
                while breakAt > start, cells[breakAt].character != " " { breakAt -= 1 }
                end = breakAt > start ? breakAt : limit
            }
            var row = prefix + cells[start..<end]
            while row.count > prefix.count, row.last?.character == " " { row.removeLast() }
            lines.append(Line(cells: row))
            start = end
            while start < cells.count, cells[start].character == " " { start += 1 }
            prefix = Array(repeating: (character: " ", style: Style.plain), count: indent)
            room = width - indent
        }
        return lines
    }

    /// A line from styled characters, neighbours of one style joined into one span.
    private init(cells: [(character: Character, style: Style)]) {
        for cell in cells {
            if let last = spans.last, last.style == cell.style {
                spans[spans.count - 1] = Span(last.text + String(cell.character), last.style)
            } else {
                spans.append(Span(String(cell.character), cell.style))
            }
        }
    }

    /// The line cut to `width` columns, or padded with spaces in `fill` style to exactly `width`
    /// when `fill` is given.
    func fitted(to width: Int, fill: Style? = nil) -> Line {
        var result = Line()
        var remaining = max(width, 0)
        for span in spans where remaining > 0 {
            let count = span.text.count
            if count <= remaining {
                result.spans.append(span)
                remaining -= count
            } else {
                result.spans.append(Span(String(span.text.prefix(remaining)), span.style))
                remaining = 0
            }
        }
        if let fill, remaining > 0 { result.spans.append(Span(String(repeating: " ", count: remaining), fill)) }
        return result
    }
}

/// A whole screen: exactly `size.rows` lines, each at most `size.columns` wide.
struct Frame: Equatable, Sendable {
    var size: TerminalSize
    var lines: [Line]

    /// The screen as plain text: no styles, trailing spaces trimmed, one `\n` after each row.
    var plainText: String {
        lines.map { line in
            var text = line.text
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }.joined()
    }
}
