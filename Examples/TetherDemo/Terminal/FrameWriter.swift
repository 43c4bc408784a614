/// Turns successive frames into the escape sequences that update a terminal without flicker.
///
/// The first frame (and the first after ``invalidate()``, e.g. on resize) clears the screen and draws
/// every row; later frames rewrite only the rows that changed: move to the row, overwrite it, clear to
/// the end of the line. The cursor stays hidden (fields draw their own caret), and the caller writes
/// each update with a single `write`, so the terminal never shows a half-drawn frame.
///
/// ```swift
/// var writer = FrameWriter()
/// let first = writer.update(to: frame)    // clear + all rows
/// let next = writer.update(to: frame2)    // only the changed rows
/// ```
struct FrameWriter {
    private var previous: Frame?

    /// Forgets what is on the screen: the next update redraws everything.
    mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the screen from the previous frame into `frame` (empty when nothing changed).
    mutating func update(to frame: Frame) -> String {
        var output = ""
        let full = previous?.size != frame.size
        if full { output += ANSI.reset + ANSI.clearScreen }
        for (row, line) in frame.lines.enumerated() {
            if !full, let previous, row < previous.lines.count, previous.lines[row] == line { continue }
            output += ANSI.moveTo(row: row)
            for span in line.spans where !span.text.isEmpty {
                output += ANSI.select(span.style) + span.text
            }
            output += ANSI.reset
            // Autowrap is off, so clearing after a full-width line cannot erase its last cell: the
            // cursor stays on it. Skip the clear then.
            if line.width < frame.size.columns { output += ANSI.clearToEndOfLine }
        }
        previous = frame
        return output
    }
}
