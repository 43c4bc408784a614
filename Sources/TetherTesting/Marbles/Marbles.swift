import Observable

/// Marble diagrams: timelines written as strings, for building test signals and stating expected output.
///
/// ```text
/// "-a-b--c|"     a at frame 1, b at 3, c at 6, completion at 7
/// "--a-#"        a at frame 2, the failure at 4
/// "-^-a-|"       hot only: ^ is frame 0 (subscription point); a at frame 2, completion at 4
/// "-(ab)-|"      a and b both at frame 1; the completion at frame 6 (the group is 4 characters wide)
/// "a b c"        spaces are ignored: a at 0, b at 1, c at 2
/// ```
///
/// The rules:
///
/// - Every character is one *frame* (a `Duration`, ``defaultFrame`` = 1 second unless you pass
///   `frame:`): a character's position in the string is its time, so diagrams stacked in a test line up.
/// - `-` is a frame where nothing happens; any other character except the ones below is a value,
///   looked up in the `values:` dictionary (or, for `String` signals built without one, the character
///   itself as a one-letter `String`).
/// - `|` completes, `#` fails with the `error:` you supply; nothing but `-` may follow either.
/// - `^` (hot signals only) marks frame 0: the moment the hot signal is created, which is when the
///   test subscribes. Events left of it happened before: they are sent at once, before anyone listens.
/// - `( … )` groups events that happen in the same frame, at the frame of the `(`. As in RxJS, the
///   group's characters still count as frames, so the next character's frame is its position.
/// - Spaces are ignored (use them to align diagrams).
///
/// A malformed diagram throws a ``MarbleError`` that names the offending character and its position —
/// a test helper never crashes the test run.
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// let text = try scheduler.hot("-a-b--c|")
/// let upper = text.map { $0.uppercased() }.record(on: scheduler)
/// scheduler.run()
/// XCTAssertEqual(upper.marbles, "-A-B--C|")
/// ```
public enum Marbles {
    /// The duration of one frame when you pass no `frame:`: one second.
    ///
    /// Pick a smaller frame for short timings, and pass the same `frame:` when you render:
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let input = try scheduler.hot("-a-b", frame: .milliseconds(100))
    /// let recorder = input.record(on: scheduler, frame: .milliseconds(100))
    /// ```
    public static let defaultFrame: Duration = .seconds(1)

    /// Parses `marbles` into the events it describes, timed from `start`, for exact comparisons with
    /// ``TestRecorder/events``.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// enum LoginError: Error { case offline }
    /// let scheduler = TestScheduler()
    /// let login = try scheduler.cold("-a-#", values: ["a": 1], error: LoginError.offline)
    /// let recorder = login.record(on: scheduler)
    /// scheduler.run()
    /// let expected = try Marbles.events("-a-#", values: ["a": 1], error: LoginError.offline)
    /// XCTAssertEqual(recorder.events, expected)
    /// print(expected)   // [next(1) @ 1.0 seconds, error(offline) @ 3.0 seconds]
    /// ```
    public static func events<Value, Failure: Error>(
        _ marbles: String,
        values: [Character: Value],
        error: Failure?,
        frame: Duration = defaultFrame,
        start: Duration = .zero
    ) throws(MarbleError) -> [TimedEvent<Value, Failure>] {
        let diagram = try MarbleDiagram<Value, Failure>(
            marbles, symbol: { values[$0] }, error: error, allowsSubscriptionPoint: true)
        return diagram.events.map { TimedEvent($0.event, at: start + frame * $0.frame) }
    }

    /// Parses a diagram of a signal that cannot fail.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let recorder = try scheduler.hot("-a-b|", values: ["a": 1, "b": 2]).record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(recorder.events, try Marbles.events("-a-b|", values: ["a": 1, "b": 2]))
    /// ```
    public static func events<Value>(
        _ marbles: String,
        values: [Character: Value],
        frame: Duration = defaultFrame,
        start: Duration = .zero
    ) throws(MarbleError) -> [TimedEvent<Value, Never>] {
        try events(marbles, values: values, error: Never?.none, frame: frame, start: start)
    }

    /// Parses a diagram of one-letter `String` values (each value character stands for itself).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let scheduler = TestScheduler()
    /// let recorder = try scheduler.cold("-a-b|").record(on: scheduler)
    /// scheduler.run()
    /// XCTAssertEqual(recorder.events, try Marbles.events("-a-b|"))
    /// ```
    public static func events(
        _ marbles: String,
        frame: Duration = defaultFrame,
        start: Duration = .zero
    ) throws(MarbleError) -> [TimedEvent<String, Never>] {
        let diagram = try MarbleDiagram<String, Never>(
            marbles, symbol: { String($0) }, error: nil, allowsSubscriptionPoint: true)
        return diagram.events.map { TimedEvent($0.event, at: start + frame * $0.frame) }
    }

    /// Renders events as a marble string, frames counted from `start` (see ``Marbles`` for the notation).
    ///
    /// Events of one frame are grouped as `(ab)`. The string ends at the last event.
    ///
    /// A diagram is drawn only when it states the times exactly — parsing it gives back the same
    /// timeline. When it cannot (an event between two frames, an event in a frame that an earlier group's
    /// width covers, a symbol that is not one character, or one of `-()|#^` and spaces), the events are
    /// listed instead, each with its time in frames from `start`, after ``inexactPrefix``:
    /// `inexact (frame 1.0 seconds): "f"@0 "t"@0 "f"@1 "t"@3`. Such a listing never equals a diagram, so
    /// a comparison with an expected diagram fails rather than passing on a misstated timeline; draw with
    /// a smaller `frame:` or one-character symbols, or compare ``TestRecorder/events``.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let events: [TimedEvent<Int, Never>] = [.next(1, at: .seconds(1)), .completed(at: .seconds(2))]
    /// print(Marbles.render(events, symbol: { _ in "x" }))   // -x|
    /// let crowded: [TimedEvent<String, Never>] = [.next("a", at: .zero), .next("b", at: .zero),
    ///                                             .next("c", at: .seconds(1))]
    /// print(Marbles.render(crowded, symbol: { $0 }))
    /// // inexact (frame 1.0 seconds): "a"@0 "b"@0 "c"@1   — "(ab)c" would put c at 4 s
    /// ```
    public static func render<Value, Failure: Error>(
        _ events: [TimedEvent<Value, Failure>],
        frame: Duration = defaultFrame,
        start: Duration = .zero,
        symbol: (Value) -> String
    ) -> String {
        let frameNanoseconds = max(frame.clampedNanoseconds, 1)
        let drawn = events.map { timed -> (offset: Int64, symbol: String?) in
            let text: String?
            switch timed.event {
            case .next(let value): text = symbol(value)
            case .error, .completed: text = nil
            }
            return (nanoseconds(from: start, to: timed.time), text)
        }
        let isError = { (index: Int) in events[index].event.error != nil }
        if let diagram = diagram(drawn, isError: isError, frameNanoseconds: frameNanoseconds) {
            return diagram
        }
        let listing = zip(events, drawn).map { timed, drawn -> String in
            let time = "@" + frameText(drawn.offset, frameNanoseconds: frameNanoseconds)
            switch timed.event {
            case .next: return (drawn.symbol ?? "").debugDescription + time
            case .error: return "#" + time
            case .completed: return "|" + time
            }
        }
        return inexactPrefix + "\(frame)): " + listing.joined(separator: " ")
    }

    /// How ``render(_:frame:start:symbol:)`` starts a rendering that lists events because no diagram
    /// states their times exactly. A diagram never contains a space, so it never starts so.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let events: [TimedEvent<String, Never>] = [.next("a", at: .milliseconds(1500))]
    /// print(Marbles.render(events, symbol: { $0 }).hasPrefix(Marbles.inexactPrefix))   // true
    /// ```
    public static let inexactPrefix = "inexact (frame "

    /// The diagram of `events` (offsets in nanoseconds from the start; the symbol of each value, `nil` for
    /// a terminal event, with `isError`), or `nil` when the notation cannot state their times exactly.
    private static func diagram(
        _ events: [(offset: Int64, symbol: String?)], isError: (Int) -> Bool, frameNanoseconds: Int64
    ) -> String? {
        var output = ""
        var cursor = 0  // the first frame the next character stands for
        var index = 0
        while index < events.count {
            let offset = events[index].offset
            guard offset >= 0, offset % frameNanoseconds == 0 else { return nil }
            guard let frameIndex = Int(exactly: offset / frameNanoseconds), frameIndex >= cursor else { return nil }
            var group: [String] = []
            while index < events.count, events[index].offset == offset {
                if let symbol = events[index].symbol {
                    guard symbol.count == 1, let character = symbol.first, !reserved.contains(character),
                        !character.isWhitespace
                    else { return nil }
                    group.append(symbol)
                } else {
                    group.append(isError(index) ? "#" : "|")
                }
                index += 1
            }
            output += String(repeating: "-", count: frameIndex - cursor)
            cursor = frameIndex
            if group.count == 1 {
                output += group[0]
                cursor += 1
            } else {
                output += "(" + group.joined() + ")"
                cursor += group.count + 2
            }
        }
        return output
    }

    /// Characters a value's symbol may not be in a diagram (the notation's own).
    private static let reserved: Set<Character> = ["-", "(", ")", "|", "#", "^"]

    /// `to - from` in nanoseconds, negative when `to` is earlier.
    private static func nanoseconds(from start: Duration, to time: Duration) -> Int64 {
        time >= start ? (time - start).clampedNanoseconds : -(start - time).clampedNanoseconds
    }

    /// An offset in frames: `3`, or `1+500ms` between frames, `-2` before the start.
    private static func frameText(_ offset: Int64, frameNanoseconds: Int64) -> String {
        let sign = offset < 0 ? "-" : ""
        let magnitude = offset.magnitude
        let frames = magnitude / UInt64(frameNanoseconds)
        let rest = magnitude % UInt64(frameNanoseconds)
        guard rest != 0 else { return sign + String(frames) }
        let restText: String
        if rest % 1_000_000 == 0 {
            restText = "\(rest / 1_000_000)ms"
        } else if rest % 1_000 == 0 {
            restText = "\(rest / 1_000)us"
        } else {
            restText = "\(rest)ns"
        }
        return sign + String(frames) + "+" + restText
    }
}

/// A malformed marble diagram: what is wrong and where.
///
/// ```swift
/// import TetherTesting
///
/// let scheduler = TestScheduler()
/// do { _ = try scheduler.hot("-a-x|", values: ["a": 1]) }
/// catch { print(error) }
/// // marble diagram "-a-x|", character 3 ('x'): no value for this symbol (add it to `values:`)
/// ```
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// A value symbol that the `values:` dictionary does not contain.
        case unknownSymbol(Character)
        /// `#` in a diagram built without an `error:` value (or for a `Never`-failing signal).
        case errorWithoutFailure
        /// An event after `|` or `#`.
        case eventAfterTermination
        /// A second `^`, or a `^` in a cold diagram or inside a group.
        case misplacedSubscriptionPoint
        /// `(` inside a group, `)` without `(`, or a group that is never closed.
        case unbalancedGroup
    }

    /// The diagram.
    public let marbles: String
    /// The character's offset in the diagram (counting every character, spaces included).
    public let offset: Int
    /// What went wrong.
    public let reason: Reason

    /// Creates an error (for tests of code that validates diagrams).
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// let error = MarbleError(marbles: "-x", offset: 1, reason: .unknownSymbol("x"))
    /// ```
    public init(marbles: String, offset: Int, reason: Reason) {
        self.marbles = marbles
        self.offset = offset
        self.reason = reason
    }

    /// A readable explanation naming the character and its position.
    ///
    /// ```swift
    /// import TetherTesting
    ///
    /// do { _ = try Marbles.events("-a-?") } catch { print(error.description) }
    /// ```
    public var description: String {
        let characters = Array(marbles)
        let found = offset < characters.count ? " ('\(characters[offset])')" : " (end of diagram)"
        let explanation: String
        switch reason {
        case .unknownSymbol: explanation = "no value for this symbol (add it to `values:`)"
        case .errorWithoutFailure: explanation = "'#' needs a failure: pass `error:`"
        case .eventAfterTermination: explanation = "an event after '|' or '#'; only '-' may follow a terminal event"
        case .misplacedSubscriptionPoint:
            explanation = "'^' may appear once, outside groups, and only in hot diagrams"
        case .unbalancedGroup: explanation = "unbalanced '(' ')' (groups cannot nest)"
        }
        return "marble diagram \"\(marbles)\", character \(offset)\(found): \(explanation)"
    }
}

/// A parsed diagram: events with their frame numbers relative to the subscription point.
struct MarbleDiagram<Value, Failure: Error> {
    var events: [(frame: Int, event: Event<Value, Failure>)] = []

    init(
        _ marbles: String,
        symbol: (Character) -> Value?,
        error: Failure?,
        allowsSubscriptionPoint: Bool
    ) throws(MarbleError) {
        var raw: [(frame: Int, event: Event<Value, Failure>)] = []
        var position = 0  // frames so far (spaces excluded)
        var subscriptionFrame: Int?
        var groupFrame: Int?
        var terminated = false

        func fail(_ offset: Int, _ reason: MarbleError.Reason) -> MarbleError {
            MarbleError(marbles: marbles, offset: offset, reason: reason)
        }

        for (offset, character) in marbles.enumerated() {
            if character == " " || character == "\t" { continue }
            defer { position += 1 }
            let frame = groupFrame ?? position
            switch character {
            case "-":
                continue
            case "^":
                guard allowsSubscriptionPoint, subscriptionFrame == nil, groupFrame == nil else {
                    throw fail(offset, .misplacedSubscriptionPoint)
                }
                subscriptionFrame = position
            case "(":
                guard groupFrame == nil else { throw fail(offset, .unbalancedGroup) }
                groupFrame = position
            case ")":
                guard groupFrame != nil else { throw fail(offset, .unbalancedGroup) }
                groupFrame = nil
            case "|", "#":
                guard !terminated else { throw fail(offset, .eventAfterTermination) }
                terminated = true
                if character == "|" {
                    raw.append((frame, .completed))
                } else {
                    guard let error else { throw fail(offset, .errorWithoutFailure) }
                    raw.append((frame, .error(error)))
                }
            default:
                guard !terminated else { throw fail(offset, .eventAfterTermination) }
                guard let value = symbol(character) else { throw fail(offset, .unknownSymbol(character)) }
                raw.append((frame, .next(value)))
            }
        }
        if groupFrame != nil {
            throw fail(marbles.count, .unbalancedGroup)
        }
        let origin = subscriptionFrame ?? 0
        events = raw.map { ($0.frame - origin, $0.event) }
    }
}
