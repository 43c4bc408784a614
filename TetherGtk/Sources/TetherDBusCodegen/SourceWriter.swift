/// Swift source text, written line by line with indentation and `///` comments.
struct SourceWriter {
    private(set) var text = ""
    private var indentation = 0

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: indentation) + content + "\n"
        }
    }

    /// `///` lines: each paragraph of `documentation`, then the `notes`, blank `///` lines between.
    mutating func documentation(_ documentation: String?, notes: [String] = []) {
        var blocks: [String] = []
        if let documentation { blocks.append(documentation) }
        blocks += notes
        for (index, block) in blocks.enumerated() {
            if index > 0 { line("///") }
            for part in block.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = part.trimmingTrailingWhitespace()
                line(trimmed.isEmpty ? "///" : "/// " + trimmed)
            }
        }
    }

    /// A documented declaration: its `///` lines, `@available(*, deprecated)` when `deprecated`, then the block.
    mutating func declaration(
        _ documentation: String?, notes: [String], deprecated: Bool, _ opening: String,
        _ body: (inout SourceWriter) throws(DBusCodegenError) -> Void
    ) throws(DBusCodegenError) {
        self.documentation(documentation, notes: notes)
        if deprecated { line("@available(*, deprecated)") }
        try block(opening, body)
    }

    mutating func block(_ opening: String, _ body: (inout SourceWriter) throws(DBusCodegenError) -> Void)
        throws(DBusCodegenError)
    {
        line(opening + " {")
        indentation += 1
        try body(&self)
        indentation -= 1
        line("}")
    }
}

extension Substring {
    func trimmingTrailingWhitespace() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
