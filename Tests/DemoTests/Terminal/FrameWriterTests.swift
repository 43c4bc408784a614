import XCTest

@testable import tether_demo

final class FrameWriterTests: XCTestCase {
    private let size = TerminalSize(columns: 10, rows: 3)

    private func frame(_ rows: [String]) -> Frame {
        Frame(size: size, lines: rows.map { Line($0) })
    }

    func testTheFirstFrameClearsTheScreenAndDrawsEveryRow() {
        var writer = FrameWriter()
        let output = writer.update(to: frame(["a", "b", "c"]))
        XCTAssertTrue(output.hasPrefix(ANSI.reset + ANSI.clearScreen))
        for row in 0..<3 { XCTAssertTrue(output.contains(ANSI.moveTo(row: row)), "row \(row)") }
    }

    func testLaterFramesRewriteOnlyChangedRowsAndClearTheirTails() {
        var writer = FrameWriter()
        _ = writer.update(to: frame(["a", "b", "c"]))
        let output = writer.update(to: frame(["a", "bb", "c"]))
        XCTAssertFalse(output.contains(ANSI.clearScreen), "no flicker: never clears the whole screen again")
        XCTAssertEqual(output, ANSI.moveTo(row: 1) + ANSI.select(.plain) + "bb" + ANSI.reset + ANSI.clearToEndOfLine)
        XCTAssertEqual(writer.update(to: frame(["a", "bb", "c"])), "", "nothing changed, nothing written")
    }

    func testAFullWidthRowIsNotFollowedByAClearThatWouldEraseItsLastCell() {
        var writer = FrameWriter()
        _ = writer.update(to: frame(["", "", ""]))
        let output = writer.update(to: frame(["0123456789", "", ""]))
        XCTAssertFalse(output.contains(ANSI.clearToEndOfLine))
    }

    func testAResizeOrInvalidateRedrawsEverything() {
        var writer = FrameWriter()
        _ = writer.update(to: frame(["a", "b", "c"]))
        writer.invalidate()
        XCTAssertTrue(writer.update(to: frame(["a", "b", "c"])).contains(ANSI.clearScreen))
        let bigger = Frame(size: TerminalSize(columns: 20, rows: 3), lines: [Line("a"), Line("b"), Line("c")])
        XCTAssertTrue(writer.update(to: bigger).contains(ANSI.clearScreen))
    }

    func testLinesAreCutAndPaddedToTheWidthInColumns() {
        let line = Line([Span("héllo", .bold), Span(" wörld")])
        XCTAssertEqual(line.fitted(to: 7).text, "héllo w")
        XCTAssertEqual(line.fitted(to: 7).spans.map(\.style), [.bold, .plain])
        XCTAssertEqual(Line("ab").fitted(to: 4, fill: .inverse).spans.last, Span("  ", .inverse))
    }
}
