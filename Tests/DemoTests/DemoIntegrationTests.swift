import Foundation
import XCTest

/// Runs the built `tether-demo` with scripts of keys and checks the screens it prints.
final class DemoIntegrationTests: XCTestCase {
    func testSignInIsEnabledOnlyAfterBothFieldsAreValid() throws {
        let result = try DemoProcess.run(
            script: """
                type tet
                key tab
                type pas
                type s
                key shift-tab
                key backspace
                """)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.screen(after: "start").contains("[ Sign in ] disabled until both fields are valid"))
        XCTAssertTrue(result.screen(after: "1: type tet").contains("Username  [tet"))
        XCTAssertTrue(result.screen(after: "1: type tet").contains("[ Sign in ] disabled"))
        XCTAssertTrue(result.screen(after: "3: type pas").contains("[ Sign in ] disabled"))
        XCTAssertTrue(
            result.screen(after: "4: type s").contains("[ Sign in ] disabled"), "username still has 3 characters")
        // Only the two valid fields together enable it… and deleting a character disables it again.
        let bothValid = try DemoProcess.run(script: "type teth\nkey tab\ntype pass\nkey backspace")
        XCTAssertTrue(bothValid.screen(after: "3: type pass").contains("[ Sign in ] enabled"))
        XCTAssertTrue(bothValid.screen(after: "3: type pass").contains("Password  [••••"))
        XCTAssertTrue(bothValid.screen(after: "4: key backspace").contains("[ Sign in ] disabled"))
    }

    func testEnterOnADisabledFormSaysSoAndSignsNothingIn() throws {
        let result = try DemoProcess.run(script: "key tab\nkey enter\nwait 2s")
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.screen(after: "2: key enter").contains("! Sign-in is disabled"))
        XCTAssertFalse(result.lastScreen.contains("Signing in"))
        XCTAssertTrue(result.lastScreen.contains("[Login]"))
    }

    func testSignInShowsSpinnerThenFailureThenWelcomeThenSearch() throws {
        let result = try DemoProcess.run(
            script: """
                type tether
                key tab
                type wrong
                key enter
                wait 400ms
                wait 400ms
                key backspace x5
                type password
                key tab
                key enter
                wait 800ms
                wait 2s
                """)
        XCTAssertEqual(result.status, 0, result.errors)
        let signingIn = result.screen(after: "5: wait 400ms")
        XCTAssertTrue(signingIn.contains("Signing in as tether…"), signingIn)
        XCTAssertTrue(signingIn.contains("[ Sign in ] disabled while signing in"), signingIn)
        let failed = result.screen(after: "6: wait 400ms")
        XCTAssertTrue(failed.contains("✗ Wrong username or password."), failed)
        XCTAssertTrue(failed.contains("[ Sign in ] enabled"), failed)
        // Enter on the button goes through its action registry to the command.
        XCTAssertTrue(result.screen(after: "10: key enter").contains("Signing in as tether…"))
        let welcome = result.screen(after: "11: wait 800ms")
        XCTAssertTrue(welcome.contains("✓ Welcome, tether!"), welcome)
        XCTAssertTrue(result.screen(after: "12: wait 2s").contains("Live search"))
    }

    func testSearchShowsResultsForAKnownQuery() throws {
        let result = try DemoProcess.run(
            script: """
                key right
                type par
                wait 299ms
                wait 1ms
                wait 600ms
                """)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.screen(after: "3: wait 299ms").contains("Searches: 0 started"))
        XCTAssertTrue(
            result.screen(after: "4: wait 1ms").contains(
                "Searches: 1 started · 0 cancelled · 0 completed · 1 in flight"))
        let found = result.screen(after: "5: wait 600ms")
        XCTAssertTrue(found.contains("matches for \"par\""), found)
        XCTAssertTrue(found.contains("    Paris, France"), found)
        XCTAssertTrue(found.contains("    Parma, Italy"), found)
        XCTAssertTrue(found.contains("Searches: 1 started · 0 cancelled · 1 completed"), found)
    }

    func testShortQueriesAreNotSearched() throws {
        let result = try DemoProcess.run(script: "key right\ntype pa\nwait 2s")
        XCTAssertTrue(result.lastScreen.contains("Searches: 0 started"), result.lastScreen)
        XCTAssertTrue(result.lastScreen.contains("✗ type 3+ characters"), result.lastScreen)
    }

    func testTypingFastAfterPausesCancelsStaleSearches() throws {
        let result = try DemoProcess.run(
            script: """
                key right
                type san every 100ms
                wait 250ms
                type t every 100ms
                wait 250ms
                type a every 100ms
                wait 1s
                """)
        XCTAssertEqual(result.status, 0, result.errors)
        let last = result.lastScreen
        let counts = try XCTUnwrap(Self.searchCounts(in: last), last)
        XCTAssertEqual(counts.started, 3, last)
        XCTAssertGreaterThan(counts.cancelled, 0, last)
        XCTAssertEqual(counts.completed, 1, last)
        XCTAssertTrue(last.contains("matches for \"santa\""), last)
        XCTAssertTrue(last.contains("Santa Cruz, Bolivia"), last)
        // Typing without pauses starts a single search.
        let burst = try DemoProcess.run(script: "key right\ntype santa every 50ms\nwait 1s")
        XCTAssertEqual(Self.searchCounts(in: burst.lastScreen)?.started, 1, burst.lastScreen)
    }

    func testResizeRedrawsAtTheNewSize() throws {
        let result = try DemoProcess.run(script: "resize 100x30\nresize 30x8")
        let wide = result.screen(after: "1: resize")
        XCTAssertEqual(wide.split(separator: "\n", omittingEmptySubsequences: false).count - 1, 30)
        XCTAssertTrue(wide.contains("100×30"))
        XCTAssertTrue(result.screen(after: "2: resize").contains("Window too small: 30×8."))
    }

    func testExpectPassesAndFailsWithExitStatusOne() throws {
        let passing = try DemoProcess.run(script: "type tether\nexpect \"✓ valid\"")
        XCTAssertEqual(passing.status, 0, passing.errors)
        let failing = try DemoProcess.run(script: "type tet\nexpect \"✓ valid\"")
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.errors.contains("script line 2"), failing.errors)
    }

    func testABadScriptIsRejectedWithItsLineNumber() throws {
        let result = try DemoProcess.run(script: "type ok\n\nkey hyperspace")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.contains("script line 3: unknown key \"hyperspace\""), result.errors)
        XCTAssertEqual(result.output, "", "nothing runs")
    }

    func testWithoutATerminalOrScriptItPlaysTheTourAndExitsZero() throws {
        let result = try DemoProcess.run([])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("✗ Wrong username or password."))
        XCTAssertTrue(result.output.contains("✓ Welcome, tether!"))
        XCTAssertTrue(result.output.contains("matches for \"santa\""))
        XCTAssertGreaterThan(Self.searchCounts(in: result.lastScreen)?.cancelled ?? 0, 0, result.lastScreen)
        XCTAssertFalse(result.output.contains("\u{1B}"), "plain text, no escape sequences")
    }

    func testANonTerminalStandardInputIsTheScript() throws {
        let result = try DemoProcess.run([], input: "type tether\nkey tab\ntype password\nexpect \"enabled\"\n")
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.screens.count, 4, "start + three steps")
        XCTAssertTrue(result.lastScreen.contains("[ Sign in ] enabled"))
    }

    func testScriptOutputIsIdenticalOnEveryRun() throws {
        let script = "type tether\nkey tab\ntype password\nkey enter\nwait 3s\ntype san every 120ms\nwait 1s"
        let first = try DemoProcess.run(script: script)
        let second = try DemoProcess.run(script: script)
        XCTAssertEqual(first.output, second.output)
    }

    func testHelpDescribesTheScriptFormat() throws {
        let result = try DemoProcess.run(["--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--script FILE"))
        XCTAssertTrue(result.output.contains("wait 500ms"))
        let bad = try DemoProcess.run(["--frobnicate"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.errors.contains("unknown argument \"--frobnicate\""))
    }

    private static func searchCounts(in screen: String) -> (started: Int, cancelled: Int, completed: Int)? {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains("Searches:") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 3 else { return nil }
        return (numbers[0], numbers[1], numbers[2])
    }
}
