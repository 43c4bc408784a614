import Foundation

/// A script that drives the demo without a terminal (`--script FILE`, or lines on a non-terminal
/// standard input). One step per line; after each step the demo prints the screen as plain text.
///
/// ```text
/// # comments and blank lines are ignored
/// type tether                 # one keystroke per character, at the same instant
/// type san every 100ms       # `every` waits that long after each keystroke
/// type "new york"             # quotes keep spaces at the ends (and a literal " every ")
/// key tab                     # a named key: tab shift-tab enter backspace esc up down left right
///                             #   space ctrl-c; `key backspace x4` repeats it
/// wait 500ms                  # advance the virtual clock (ms or s, e.g. 1.5s)
/// resize 100x30               # as if the terminal sent SIGWINCH
/// expect "enabled"            # fail (exit 1) unless the screen contains the text; prints nothing
/// ```
///
/// Time is virtual: the whole demo runs on a `TestScheduler`, so `wait 2s` takes no real time and
/// every run prints the same screens.
struct Script: Equatable {
    var steps: [Step]

    struct Step: Equatable {
        var line: Int
        var source: String
        var action: Action
    }

    enum Action: Equatable {
        case type(String, every: Duration?)
        case key(Key, count: Int)
        case wait(Duration)
        case resize(TerminalSize)
        case expect(String)
    }

    struct ParseError: Error, Equatable, CustomStringConvertible {
        var line: Int
        var message: String

        var description: String { "script line \(line): \(message)" }
    }

    init(steps: [Step]) {
        self.steps = steps
    }

    init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = Self.stripComment(rawLine).trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let (command, rest) = Self.splitFirstWord(line)
            let action: Action
            switch command.lowercased() {
            case "type":
                action = try Self.parseType(rest, line: number)
            case "key":
                action = try Self.parseKey(rest, line: number)
            case "wait":
                guard let duration = Self.parseDuration(rest) else {
                    throw ParseError(line: number, message: "expected a duration like 500ms or 2s, got \"\(rest)\"")
                }
                action = .wait(duration)
            case "resize":
                guard let size = TerminalSize(parsing: rest), size.columns >= 1, size.rows >= 1 else {
                    throw ParseError(line: number, message: "expected a size like 100x30, got \"\(rest)\"")
                }
                action = .resize(size)
            case "expect":
                let (text, remainder) = try Self.parseText(rest, line: number)
                guard remainder.isEmpty, !text.isEmpty else {
                    throw ParseError(line: number, message: "expected one non-empty text after expect")
                }
                action = .expect(text)
            default:
                throw ParseError(
                    line: number, message: "unknown command \"\(command)\" (expected type, key, wait, resize or expect)"
                )
            }
            steps.append(Step(line: number, source: line, action: action))
        }
        self.steps = steps
    }

    // MARK: Parsing helpers

    /// Drops a `#` comment that is not inside quotes.
    private static func stripComment(_ line: Substring) -> Substring {
        var quoted = false
        for index in line.indices {
            switch line[index] {
            case "\"": quoted.toggle()
            case "#" where !quoted: return line[..<index]
            default: continue
            }
        }
        return line
    }

    private static func splitFirstWord(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), line[space...].trimmingCharacters(in: .whitespaces))
    }

    /// `"quoted text" rest` or `bare text` (the whole remainder).
    private static func parseText(_ text: String, line: Int) throws(ParseError) -> (String, String) {
        guard text.hasPrefix("\"") else { return (text, "") }
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex else { break }
                result.append(text[next])
                index = text.index(after: next)
                continue
            }
            if character == "\"" {
                let rest = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
                return (result, rest)
            }
            result.append(character)
            index = text.index(after: index)
        }
        throw ParseError(line: line, message: "missing closing quote")
    }

    private static func parseType(_ rest: String, line: Int) throws(ParseError) -> Action {
        // Bare text may end with `every <duration>` too: `type san every 100ms`.
        if !rest.hasPrefix("\""), let range = rest.range(of: " every ", options: .backwards),
            let interval = parseDuration(String(rest[range.upperBound...])), !rest[..<range.lowerBound].isEmpty
        {
            return .type(String(rest[..<range.lowerBound]), every: interval)
        }
        let (text, remainder) = try parseText(rest, line: line)
        guard !text.isEmpty else { throw ParseError(line: line, message: "type needs some text") }
        guard !remainder.isEmpty else { return .type(text, every: nil) }
        let (word, value) = splitFirstWord(remainder)
        guard word == "every", let interval = parseDuration(value) else {
            throw ParseError(
                line: line, message: "expected `every <duration>` after the quoted text, got \"\(remainder)\"")
        }
        return .type(text, every: interval)
    }

    private static func parseKey(_ rest: String, line: Int) throws(ParseError) -> Action {
        let words = rest.split(separator: " ").map(String.init)
        guard let name = words.first, let key = Key.scriptNames[name.lowercased()] else {
            let known = Key.scriptNames.keys.sorted().joined(separator: ", ")
            throw ParseError(line: line, message: "unknown key \"\(rest)\" (known: \(known))")
        }
        guard words.count > 1 else { return .key(key, count: 1) }
        guard words.count == 2, words[1].hasPrefix("x"), let count = Int(words[1].dropFirst()),
            (1...1000).contains(count)
        else {
            throw ParseError(
                line: line,
                message: "expected a repeat count like x3 after the key, got \"\(words[1...].joined(separator: " "))\"")
        }
        return .key(key, count: count)
    }

    /// `500ms`, `2s`, `1.5s`, `250 ms`; at most an hour.
    static func parseDuration(_ text: String) -> Duration? {
        let compact = text.replacingOccurrences(of: " ", with: "").lowercased()
        let milliseconds: Double?
        if compact.hasSuffix("ms") {
            milliseconds = Double(compact.dropLast(2))
        } else if compact.hasSuffix("s") {
            milliseconds = Double(compact.dropLast()).map { $0 * 1000 }
        } else {
            milliseconds = nil
        }
        guard let milliseconds, milliseconds.isFinite, milliseconds >= 0, milliseconds <= 3_600_000 else { return nil }
        return .microseconds(Int64((milliseconds * 1000).rounded()))
    }
}
