import Observable

/// The comparison behind ``expectMarbles(_:_:_:sourceLocation:)`` and ``assertMarbles(_:_:_:file:line:)``:
/// two marble strings, and the aligned failure message when they differ.
struct MarbleComparison: Equatable {
    /// The expected diagram as compared: spaces removed (they only align diagrams) and trailing `-`
    /// removed (a recording ends at its last event, so frames of silence after it are not rendered).
    let expected: String
    /// The recorded diagram, normalized the same way.
    let actual: String

    init(expected: String, actual: String) {
        self.expected = Self.normalized(expected)
        self.actual = Self.normalized(actual)
    }

    var matches: Bool { expected == actual }

    /// The first frame (character position) where the diagrams differ, or `nil` when they match.
    var firstDifference: Int? {
        let expected = Array(self.expected)
        let actual = Array(self.actual)
        for index in 0..<max(expected.count, actual.count) {
            let left = index < expected.count ? expected[index] : nil
            let right = index < actual.count ? actual[index] : nil
            if left != right { return index }
        }
        return nil
    }

    /// The two diagrams one above the other, a caret under the first difference:
    ///
    /// ```text
    /// marbles differ at frame 5:
    ///   expected: -a-b--c|
    ///   actual:   -a-b-c|
    ///                  ^
    /// ```
    func failureMessage(_ comment: String? = nil) -> String? {
        guard let frame = firstDifference else { return nil }
        if actual.hasPrefix(Marbles.inexactPrefix) {
            return [
                "marbles cannot show the recording without misstating its times"
                    + (comment.map { " (\($0))" } ?? "") + ":",
                "  expected: " + (expected.isEmpty ? "(no event)" : expected),
                "  actual:   " + actual,
                "  (events between frames, in a frame an earlier group's width covers, or values whose symbol is not"
                    + " one character: pass a smaller `frame:` or one-character symbols, or compare `events`)",
            ].joined(separator: "\n")
        }
        var lines = ["marbles differ at frame \(frame)" + (comment.map { " (\($0))" } ?? "") + ":"]
        lines.append("  expected: " + (expected.isEmpty ? "(no event)" : expected))
        lines.append("  actual:   " + (actual.isEmpty ? "(no event)" : actual))
        lines.append("            " + String(repeating: " ", count: frame) + "^")
        return lines.joined(separator: "\n")
    }

    static func normalized(_ marbles: String) -> String {
        // An event listing (a recording no diagram draws exactly) is compared as it is.
        if marbles.hasPrefix(Marbles.inexactPrefix) { return marbles }
        var characters = marbles.filter { $0 != " " && $0 != "\t" }
        while characters.last == "-" { characters.removeLast() }
        return characters
    }
}
