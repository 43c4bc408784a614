import Observable
import XCTest

@testable import tether_demo

// Issue 19: at narrow widths the demo cut its text mid-word. Prose now breaks at word boundaries;
// fields and the button keep their columns.
final class WordWrapTests: XCTestCase {
    func testALineBreaksAtSpacesAndKeepsItsIndentation() {
        let line = Line("  the quick brown fox jumps over the lazy dog")
        XCTAssertEqual(
            line.wrapped(to: 16).map(\.text),
            ["  the quick", "  brown fox", "  jumps over the", "  lazy dog"])
    }

    func testEveryRowFitsAndNoWordIsSplit() {
        let text = "  The query goes debounce(0.3 s, while ≥ 3 chars) → flatMapLatest(search) → deliver(on: UI);"
        for width in 23...60 {  // from the width where the longest word fits beside the indentation
            let rows = Line(text).wrapped(to: width)
            XCTAssertTrue(rows.allSatisfy { $0.width <= width }, "width \(width): \(rows.map(\.text))")
            XCTAssertEqual(
                rows.flatMap { $0.text.split(separator: " ") }, text.split(separator: " "),
                "width \(width): \(rows.map(\.text))")
        }
    }

    func testStylesSurviveABreak() {
        let line = Line("  Valid credentials: ") + Line("\"tether\"", .bold) + Line(" and more words")
        let rows = line.wrapped(to: 24)
        XCTAssertEqual(rows.map(\.text), ["  Valid credentials:", "  \"tether\" and more", "  words"])
        XCTAssertEqual(rows[1].spans.first { $0.text.contains("tether") }, Span("\"tether\"", .bold))
    }

    func testAWordLongerThanTheLineIsCutAndTheRestContinues() {
        XCTAssertEqual(Line("abcdefghij kl").wrapped(to: 4).map(\.text), ["abcd", "efgh", "ij", "kl"])
    }

    func testALineThatFitsOrDoesNotWrapIsLeftAlone() {
        let fits = Line("  short", .dim)
        XCTAssertEqual(fits.wrapped(to: 40), [fits])
        var field = Line("› Username  [ann                     ] ✗ 4+ characters")
        field.wraps = false
        XCTAssertEqual(field.wrapped(to: 40), [field])
    }

    func testTheSearchScreenAtTheMinimumWidthSplitsNoWordOfItsExplanation() throws {
        let clock = TestScheduler()
        let app = DemoApp(
            environment: DemoEnvironment(ui: clock, background: clock), size: TerminalSize(columns: 40, rows: 30))
        app.handle(.right)
        let screen = Renderer.frame(for: app).plainText
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" }))
        for word in ["debounce(0.3", "flatMapLatest(search)", "deliver(on:", "background", "scheduler.", "results."] {
            XCTAssertTrue(words.contains(Substring(word)), "\"\(word)\" is cut:\n\(screen)")
        }
    }

    func testTheLoginScreenAtTheMinimumWidthKeepsTheFieldsOnOneRowEach() throws {
        let clock = TestScheduler()
        let app = DemoApp(
            environment: DemoEnvironment(ui: clock, background: clock), size: TerminalSize(columns: 40, rows: 30))
        let screen = Renderer.frame(for: app).plainText
        let fieldRows = screen.split(separator: "\n").filter { $0.contains("[") && $0.contains("Username") }
        XCTAssertEqual(fieldRows.count, 1, screen)
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" }))
        for word in ["(combineLatest);", "sign-in", "Command", "service,", "0.8", "s)."] {
            XCTAssertTrue(words.contains(Substring(word)), "\"\(word)\" is cut:\n\(screen)")
        }
    }
}
