import Observable
import Testing
import TetherTesting

import TetherDemoModels

@testable import tether_demo

// Issue 19: Esc emptied the query but the old results stayed on screen, labelled stale. A query too
// short to search now clears the results at once, drops a query waiting for its pause and cancels the
// search in flight. Swift Testing, with the results drawn as marbles (one frame = 100 ms; `r` = results
// for "par", `n` = none).

@Suite struct SearchEscapeTests {
    private static let frame: Duration = .milliseconds(100)

    /// A search view model on `clock`, whose initial empty query has cleared the (empty) results.
    private static func makeSearch(on clock: TestScheduler) -> SearchViewModel {
        let search = SearchViewModel(service: CitySearchService(scheduler: clock), ui: clock)
        clock.advance(by: .zero)
        return search
    }

    private static func draw(_ results: SearchResults?) -> String {
        guard let results else { return "n" }
        return results.query == "par" ? "r" : "?"
    }

    @Test func emptyingTheQueryClearsTheResultsAtOnce() {
        let clock = TestScheduler()
        let search = Self.makeSearch(on: clock)
        let results = search.observe(\.results).record(on: clock, frame: Self.frame)
        search.query = "par"
        clock.advance(by: .milliseconds(1000))  // searched at 300 ms, results at 900 ms
        search.query = ""  // Esc
        clock.advance(by: .milliseconds(500))
        // query:   p---------e        p: "par", e: Esc
        expectMarbles(results, "n--------rn", symbol: Self.draw)
        #expect(search.results == nil)
        #expect(search.stats.value == SearchStats(started: 1, completed: 1))
    }

    @Test func emptyingTheQueryCancelsTheSearchInFlight() {
        let clock = TestScheduler()
        let search = Self.makeSearch(on: clock)
        let results = search.observe(\.results).record(on: clock, frame: Self.frame)
        search.query = "par"
        clock.advance(by: .milliseconds(500))  // the search started at 300 ms; it would answer at 900 ms
        search.query = ""
        clock.advance(by: .seconds(2))
        expectMarbles(results, "n----n", symbol: Self.draw)  // the stale answer never arrives
        #expect(search.stats.value == SearchStats(started: 1, cancelled: 1))
    }

    @Test func emptyingTheQueryDropsTheQueryWaitingForItsPause() {
        let clock = TestScheduler()
        let search = Self.makeSearch(on: clock)
        search.query = "par"
        clock.advance(by: .milliseconds(100))  // "par" waits for a 300 ms pause
        search.query = ""
        clock.advance(by: .seconds(2))
        #expect(search.results == nil)
        #expect(search.stats.value.started == 0, "the waiting query is never searched")
    }

    @Test func aShortQueryAfterResultsClearsThemToo() {
        let clock = TestScheduler()
        let search = Self.makeSearch(on: clock)
        search.query = "par"
        clock.advance(by: .seconds(1))
        #expect(search.results?.query == "par")
        search.query = "pa"  // Backspace below the minimum length
        clock.advance(by: .zero)
        #expect(search.results == nil)
    }

    @Test func escOnTheSearchScreenLeavesNoResultsOnScreen() throws {
        let clock = TestScheduler()
        let app = DemoApp(
            environment: DemoEnvironment(ui: clock, background: clock), size: TerminalSize(columns: 80, rows: 30))
        app.handle(.right)
        for character in "par" { app.handle(.character(character)) }
        clock.advance(by: .seconds(1))
        #expect(Renderer.frame(for: app).plainText.contains("matches for \"par\""))
        app.handle(.escape)
        clock.advance(by: .zero)
        let screen = Renderer.frame(for: app).plainText
        #expect(!screen.contains("matches for"), "\(screen)")
        #expect(!screen.contains("stale"), "\(screen)")
        #expect(!screen.contains("Paris, France"), "\(screen)")
        #expect(screen.contains("Results appear"), "\(screen)")
    }
}
