#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A terminal's size in character cells.
struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    var columns: Int
    var rows: Int

    /// The size used without a terminal (script mode) until a script says `resize`.
    static let standard = TerminalSize(columns: 80, rows: 24)
    /// Below this the layout gives up and asks for a bigger window.
    static let minimum = TerminalSize(columns: 40, rows: 12)

    var description: String { "\(columns)×\(rows)" }

    /// The size of the terminal behind `fileDescriptor` (ioctl `TIOCGWINSZ`), or `nil` when it is not
    /// a terminal or reports zero.
    static func current(of fileDescriptor: Int32 = STDOUT_FILENO) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Parses `100x30` (or `100×30`).
    init?(parsing text: some StringProtocol) {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "×" || $0 == "X" })
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
            (1...1000).contains(columns), (1...1000).contains(rows)
        else { return nil }
        self.init(columns: columns, rows: rows)
    }

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}
