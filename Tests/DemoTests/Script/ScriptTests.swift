import XCTest

@testable import tether_demo

final class ScriptTests: XCTestCase {
    func testEveryCommandParses() throws {
        let script = try Script(
            parsing: """
                # a comment
                type tether
                type "new york"   # quoted, with a comment
                type san every 100ms
                type "a # b" every 1.5s

                key tab
                key backspace x4
                key SHIFT-TAB
                wait 500ms
                wait 2s
                wait 250 ms
                resize 100x30
                expect "[ Sign in ] enabled"
                """)
        XCTAssertEqual(
            script.steps.map(\.action),
            [
                .type("tether", every: nil), .type("new york", every: nil), .type("san", every: .milliseconds(100)),
                .type("a # b", every: .milliseconds(1500)), .key(.tab, count: 1), .key(.backspace, count: 4),
                .key(.shiftTab, count: 1), .wait(.milliseconds(500)), .wait(.seconds(2)), .wait(.milliseconds(250)),
                .resize(TerminalSize(columns: 100, rows: 30)), .expect("[ Sign in ] enabled"),
            ])
        XCTAssertEqual(script.steps.map(\.line), [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14])
    }

    func testMistakesReportTheirLine() {
        let cases: [(String, String)] = [
            ("dance", "unknown command \"dance\""),
            ("key hyperspace", "unknown key \"hyperspace\""),
            ("key tab x0", "repeat count"),
            ("wait soon", "expected a duration"),
            ("wait -5ms", "expected a duration"),
            ("resize big", "expected a size"),
            ("type \"unterminated", "missing closing quote"),
            ("type \"x\" later", "expected `every <duration>`"),
            ("expect \"\"", "non-empty text"),
        ]
        for (source, message) in cases {
            XCTAssertThrowsError(try Script(parsing: "type ok\n\(source)"), source) { error in
                let error = error as? Script.ParseError
                XCTAssertEqual(error?.line, 2, source)
                XCTAssertTrue(error?.description.contains(message) ?? false, "\(source): \(String(describing: error))")
            }
        }
    }

    func testTheTourParses() throws {
        XCTAssertFalse(try Script(parsing: Tour.script).steps.isEmpty)
    }
}
