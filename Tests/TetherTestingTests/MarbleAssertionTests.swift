import Observable
import Testing
import XCTest

@testable import TetherTesting

// The marble assertions of TetherTesting: the comparison and its message, `expectMarbles` (Swift
// Testing: the issue is recorded at the caller's line) and `assertMarbles` (XCTest: the failure is
// recorded at the caller's file and line).

@Suite struct MarbleComparisonTests {
    @Test func spacesAndTrailingSilenceAreIgnored() {
        #expect(MarbleComparison(expected: "-a - b|  ", actual: "-a-b|").matches)
        #expect(MarbleComparison(expected: "---r--", actual: "---r").matches)
        #expect(!MarbleComparison(expected: "-a-b|", actual: "-a-b").matches)
    }

    @Test func theMessageAlignsBothDiagramsWithACaretUnderTheFirstDifference() {
        let comparison = MarbleComparison(expected: "-a-b--c|", actual: "-a-b-c|")
        #expect(comparison.firstDifference == 5)
        #expect(
            comparison.failureMessage() == """
                marbles differ at frame 5:
                  expected: -a-b--c|
                  actual:   -a-b-c|
                                 ^
                """)
    }

    @Test func anEmptyRecordingIsNamedAndTheCommentIsKept() {
        let message = MarbleComparison(expected: "-a", actual: "").failureMessage("the spinner")
        #expect(
            message == """
                marbles differ at frame 0 (the spinner):
                  expected: -a
                  actual:   (no event)
                            ^
                """)
    }

    @Test func aRecordingNoDiagramDrawsExactlyNeverMatchesAndSaysWhy() throws {
        // Events at 0, 0, 1 s and 3 s: the diagram "(ft)ft" would read 0, 0, 4 s, 5 s.
        let scheduler = TestScheduler()
        let subject = Subject<Bool, Never>()
        let recorder = subject.record(on: scheduler)
        subject.send(false)
        subject.send(true)
        scheduler.advance(by: .seconds(1))
        subject.send(false)
        scheduler.advance(by: .seconds(2))
        subject.send(true)
        let actual = recorder.marbles { $0 ? "t" : "f" }
        let comparison = MarbleComparison(expected: "(ft)ft", actual: actual)
        #expect(!comparison.matches)
        let message = try #require(comparison.failureMessage())
        #expect(message.hasPrefix("marbles cannot show the recording without misstating its times:"))
        #expect(message.contains(#"  actual:   inexact (frame 1.0 seconds): "f"@0 "t"@0 "f"@1 "t"@3"#))
        withKnownIssue {
            expectMarbles(recorder, "(ft)ft", symbol: { $0 ? "t" : "f" })
        }
    }

    @Test func anEventListingIsComparedAsItIs() {
        let listing = #"inexact (frame 1.0 seconds): "a"@1+500ms"#
        #expect(MarbleComparison(expected: listing, actual: listing).matches)
        #expect(!MarbleComparison(expected: "-a", actual: listing).matches)
    }

    @Test func matchingDiagramsHaveNoMessage() {
        #expect(MarbleComparison(expected: "(ab)|", actual: "(ab)|").failureMessage() == nil)
    }
}

@Suite struct ExpectMarblesTests {
    @Test func aMatchingRecordingPassesForEachWayOfDrawingValues() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.hot("-a-b|", values: ["a": 1, "b": 2])
        let recorder = numbers.record(on: scheduler)
        scheduler.run()
        #expect(expectMarbles(recorder, "-1-2|"))
        #expect(expectMarbles(recorder, "-o-e|", symbol: { $0 % 2 == 0 ? "e" : "o" }))
        #expect(expectMarbles(recorder, "-a-b|", values: ["a": 1, "b": 2]))
    }

    @Test func aMismatchIsRecordedAtTheCallersLineWithBothDiagrams() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-a-b|").record(on: scheduler)
        scheduler.run()
        let line = #line + 2
        withKnownIssue {
            expectMarbles(recorder, "-a--b|")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
                && text.contains(
                    "  expected: -a--b|\n  actual:   -a-b|\n" + String(repeating: " ", count: 12 + 3) + "^")
        }
    }
}

final class AssertMarblesTests: XCTestCase {
    private var recorded: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            recorded.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAMismatchFailsAtTheCallersLineWithBothDiagrams() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-t-f", values: ["t": true, "f": false]).record(on: scheduler)
        scheduler.run()
        capturing = true
        let line = #line + 1
        let matched = assertMarbles(recorder, "-t-t", symbol: { $0 ? "t" : "f" }, "the button")
        capturing = false

        XCTAssertFalse(matched)
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertEqual(recorded.first?.file, "\(#filePath)")
        XCTAssertTrue(
            recorded.first?.description.contains(
                "marbles differ at frame 3 (the button):\n  expected: -t-t\n  actual:   -t-f\n               ^")
                ?? false,
            recorded.first?.description ?? "")
    }

    func testAMatchingRecordingPasses() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-a-(b|)").map { $0.uppercased() }.record(on: scheduler)
        scheduler.run()
        XCTAssertTrue(assertMarbles(recorder, "-A-(B|)"))
        XCTAssertTrue(assertMarbles(recorder, "-x-(y|)", values: ["x": "A", "y": "B"]))
        XCTAssertTrue(assertMarbles(recorder, "-l-(l|)", symbol: { _ in "l" }))
    }
}
