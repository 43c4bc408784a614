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

    init(_ spans: [Span] = []) {
        self.spans = spans
    }

    init(_ text: String, _ style: Style = .plain) {
        spans = [Span(text, style)]
    }

    var text: String { spans.map(\.text).joined() }
    var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    static func + (lhs: Line, rhs: Line) -> Line { Line(lhs.spans + rhs.spans) }

    mutating func append(_ text: String, _ style: Style = .plain) {
        spans.append(Span(text, style))
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
